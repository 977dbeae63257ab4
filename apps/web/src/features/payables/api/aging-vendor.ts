import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AgingVendorDetail } from '@outlay/contracts/payables';
import { AGING_URL, type AgingParams } from './aging';

/** One vendor's open invoices on the day: own currency, rate, group amount, days past due. */
export function agingVendorQueryOptions(vendorId: string, p: AgingParams) {
  return queryOptions<AgingVendorDetail>({
    queryKey: [`${AGING_URL}/${vendorId}`, undefined, 'asOf', p.asOf, 'basis', p.basis],
  });
}

export function useAgingVendor(vendorId: string, p: AgingParams, enabled: boolean) {
  return useQuery({ ...agingVendorQueryOptions(vendorId, p), enabled });
}
