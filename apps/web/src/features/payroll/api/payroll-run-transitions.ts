import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PayPayrollRunInput, PayrollRunDetail } from '@outlay/contracts/payroll';
import { apiJson } from '@/lib/api-client';
import { PAYROLL_RUNS_URL } from './payroll-run';

/**
 * `POST /api/payroll/runs/:id/submit|approve|pay`: the three moves of a run. Approval may be
 * refused with 403 reauth_required; the caller wraps it with the step-up prompt.
 */
export type PayrollRunMove = 'submit' | 'approve' | 'pay';

export function movePayrollRun({ id, move, input }: { id: string; move: PayrollRunMove; input?: PayPayrollRunInput }) {
  return apiJson<PayrollRunDetail>(
    'POST',
    `${PAYROLL_RUNS_URL}/${id}/${move}`,
    move === 'pay' ? (input ?? {}) : undefined,
  );
}

export function useMovePayrollRun(wrap: (fn: typeof movePayrollRun) => typeof movePayrollRun = (fn) => fn) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: wrap(movePayrollRun),
    onSuccess: (run) => {
      queryClient.setQueryData([PAYROLL_RUNS_URL, run.id], run);
      return queryClient.invalidateQueries({ queryKey: [PAYROLL_RUNS_URL] });
    },
  });
}
