import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Paginated } from '@outlay/contracts/lists';
import type { Vendor } from '@outlay/contracts/vendors';
import { apiJson } from '@/lib/api-client';

/** Vendors the caller may see (optionally one organization's), for the requests filter. */
export function vendorFilterOptionsQuery(organizationId: string | undefined) {
  const params = new URLSearchParams({ pageSize: '100', sort: 'name' });
  if (organizationId) params.set('organizationId', organizationId);
  return queryOptions({
    queryKey: ['/api/vendors', { picker: organizationId ?? 'all' }],
    queryFn: ({ signal }) => apiJson<Paginated<Vendor>>('GET', `/api/vendors?${params.toString()}`, undefined, { signal }),
    select: (data) => data.items,
    staleTime: 5 * 60_000,
  });
}

export function useVendorFilterOptions(organizationId: string | undefined, enabled = true) {
  return useQuery({ ...vendorFilterOptionsQuery(organizationId), enabled });
}
