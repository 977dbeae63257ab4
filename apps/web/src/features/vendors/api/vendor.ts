import { queryOptions, useQuery } from '@tanstack/react-query';
import type { VendorDetail } from '@outlay/contracts/vendors';
import { apiJson } from '@/lib/api-client';

export const VENDORS_URL = '/api/vendors';

export function fetchVendor(id: string, signal?: AbortSignal) {
  return apiJson<VendorDetail>('GET', `${VENDORS_URL}/${id}`, undefined, { signal });
}

/** One vendor with its latest status change (who blocked it and why). */
export function vendorQueryOptions(id: string) {
  return queryOptions({ queryKey: [VENDORS_URL, id], queryFn: ({ signal }) => fetchVendor(id, signal) });
}

export function useVendor(id: string | null) {
  return useQuery({ ...vendorQueryOptions(id ?? ''), enabled: Boolean(id) });
}
