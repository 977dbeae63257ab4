import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreatePayrollRunInput, PayrollRunDetail } from '@outlay/contracts/payroll';
import { apiJson } from '@/lib/api-client';
import { PAYROLL_RUNS_URL } from './payroll-run';

/** One key per dialog opening: a double submit or a retry after a lost answer creates one run. */
export function createPayrollRun({ input, idempotencyKey }: { input: CreatePayrollRunInput; idempotencyKey: string }) {
  return apiJson<PayrollRunDetail>('POST', PAYROLL_RUNS_URL, input, { headers: { 'Idempotency-Key': idempotencyKey } });
}

export function useCreatePayrollRun() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createPayrollRun,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [PAYROLL_RUNS_URL] }),
  });
}
