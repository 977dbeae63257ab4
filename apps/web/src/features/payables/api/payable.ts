import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PayableDetail } from '@outlay/contracts/payables';
import { apiJson } from '@/lib/api-client';
import { PAYABLES_URL } from './record-payment';

export function fetchPayable(id: string) {
  return apiJson<PayableDetail>('GET', `${PAYABLES_URL}/${id}`);
}

/** One payable with its payments and the version an edit sends back. */
export function payableQueryOptions(id: string) {
  return queryOptions<PayableDetail>({ queryKey: [`${PAYABLES_URL}/${id}`] });
}

export function usePayable(id: string, enabled = true) {
  return useQuery({ ...payableQueryOptions(id), enabled });
}
