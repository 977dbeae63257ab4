import { queryOptions, useQuery } from '@tanstack/react-query';
import type { VendorFilterOptions } from '@outlay/contracts/requests';
import { apiJson } from '@/lib/api-client';

export const VENDOR_FILTER_OPTIONS_URL = '/api/requests/vendor-filter-options';

/**
 * Vendors of the organizations whose requests the caller reads (optionally one organization's),
 * for the requests filter: asked of the requests module, so reading requests is enough.
 */
export function vendorFilterOptionsQuery(organizationId: string | undefined) {
  const url = organizationId
    ? `${VENDOR_FILTER_OPTIONS_URL}?organizationId=${encodeURIComponent(organizationId)}`
    : VENDOR_FILTER_OPTIONS_URL;
  return queryOptions({
    queryKey: [VENDOR_FILTER_OPTIONS_URL, organizationId ?? 'all'],
    queryFn: ({ signal }) => apiJson<VendorFilterOptions>('GET', url, undefined, { signal }),
    select: (data) => data.items,
    staleTime: 5 * 60_000,
  });
}

export function useVendorFilterOptions(organizationId: string | undefined, enabled = true) {
  return useQuery({ ...vendorFilterOptionsQuery(organizationId), enabled });
}
