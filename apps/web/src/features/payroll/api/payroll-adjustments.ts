import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PayrollAdjustmentInput, PayrollRunDetail } from '@outlay/contracts/payroll';
import { apiJson } from '@/lib/api-client';
import { PAYROLL_RUNS_URL } from './payroll-run';

/** `POST /api/payroll/runs/:id/adjustments`: a bonus or deduction; the run comes back recomputed. */
export function addPayrollAdjustment({
  runId,
  input,
  idempotencyKey,
}: {
  runId: string;
  input: PayrollAdjustmentInput;
  idempotencyKey: string;
}) {
  return apiJson<PayrollRunDetail>('POST', `${PAYROLL_RUNS_URL}/${runId}/adjustments`, input, {
    headers: { 'Idempotency-Key': idempotencyKey },
  });
}

/** `DELETE /api/payroll/runs/:id/adjustments/:adjustmentId`. */
export function removePayrollAdjustment({ runId, adjustmentId }: { runId: string; adjustmentId: string }) {
  return apiJson<PayrollRunDetail>('DELETE', `${PAYROLL_RUNS_URL}/${runId}/adjustments/${adjustmentId}`);
}

function useRunMutation<A>(fn: (args: A) => Promise<PayrollRunDetail>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (run) => {
      queryClient.setQueryData([PAYROLL_RUNS_URL, run.id], run);
      return queryClient.invalidateQueries({ queryKey: [PAYROLL_RUNS_URL] });
    },
  });
}

export const useAddPayrollAdjustment = () => useRunMutation(addPayrollAdjustment);
export const useRemovePayrollAdjustment = () => useRunMutation(removePayrollAdjustment);
