import { queryOptions, useQuery } from '@tanstack/react-query';
import type { VendorOrganization } from '@outlay/contracts/vendors';

export const VENDOR_ORGANIZATIONS_KEY = ['/api/vendors/organizations'] as const;

/** Organizations the caller keeps vendors for (all for group scope, their own otherwise). */
export function vendorOrganizationsQueryOptions() {
  // The generic query function reads the path from the key.
  return queryOptions<{ items: VendorOrganization[] }>({ queryKey: VENDOR_ORGANIZATIONS_KEY, staleTime: 5 * 60_000 });
}

export function useVendorOrganizations() {
  return useQuery(vendorOrganizationsQueryOptions());
}
