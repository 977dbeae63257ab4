import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PayableDetail, RecordPaymentInput } from '@outlay/contracts/payables';
import { apiJson } from '@/lib/api-client';
import { AGING_URL } from './aging';

export const PAYABLES_URL = '/api/payables';

/** One key per payment the dialog is about to record, so a retried save records it once. */
export function recordPayment({
  payableId,
  input,
  key,
}: {
  payableId: string;
  input: RecordPaymentInput;
  key: string;
}) {
  return apiJson<PayableDetail>('POST', `${PAYABLES_URL}/${payableId}/payments`, input, {
    headers: { 'Idempotency-Key': key },
  });
}

export function useRecordPayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: recordPayment,
    onSuccess: async () => {
      // The report's buckets, every drill-down and the vendors' open balances move with it.
      await Promise.all([
        queryClient.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).startsWith(AGING_URL) }),
        queryClient.invalidateQueries({ queryKey: [PAYABLES_URL] }),
        queryClient.invalidateQueries({ queryKey: ['/api/vendors'] }),
      ]);
    },
  });
}
