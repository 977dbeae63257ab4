import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PayableDetail, UpdatePayableInput } from '@outlay/contracts/payables';
import { apiJson } from '@/lib/api-client';
import { AGING_URL } from './aging';
import { PAYABLES_URL } from './record-payment';

/** `headers` carries If-Match: refused (412) when the invoice changed since it was loaded. */
export function updatePayable({
  id,
  input,
  headers,
}: {
  id: string;
  input: UpdatePayableInput;
  headers?: Record<string, string>;
}) {
  return apiJson<PayableDetail>('PATCH', `${PAYABLES_URL}/${id}`, input, { headers });
}

export function useUpdatePayable() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePayable,
    // A new invoice date moves the due date, and with it the invoice's bucket.
    onSuccess: () =>
      queryClient.invalidateQueries({
        predicate: (q) => String(q.queryKey[0]).startsWith(AGING_URL) || String(q.queryKey[0]).startsWith(PAYABLES_URL),
      }),
  });
}
