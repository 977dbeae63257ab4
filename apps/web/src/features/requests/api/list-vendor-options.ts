import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { VendorOptions } from '@outlay/contracts/requests';
import { apiJson } from '@/lib/api-client';

export const VENDOR_OPTIONS_URL = '/api/requests/vendor-options';

/** Vendors of the caller's organization matching `q` (blocked ones flagged, shown disabled). */
export function vendorOptionsQuery(q: string) {
  const query = q.trim();
  return queryOptions({
    queryKey: [VENDOR_OPTIONS_URL, query],
    queryFn: ({ signal }) =>
      apiJson<VendorOptions>(
        'GET',
        query ? `${VENDOR_OPTIONS_URL}?q=${encodeURIComponent(query)}` : VENDOR_OPTIONS_URL,
        undefined,
        { signal },
      ),
    staleTime: 60_000,
  });
}

export function useVendorOptions(q: string, enabled = true) {
  return useQuery({ ...vendorOptionsQuery(q), enabled, placeholderData: keepPreviousData });
}
