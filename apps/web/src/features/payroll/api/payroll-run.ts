import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PayrollRunDetail } from '@outlay/contracts/payroll';
import { apiJson } from '@/lib/api-client';

export const PAYROLL_RUNS_URL = '/api/payroll/runs';

export function fetchPayrollRun(id: string, signal?: AbortSignal) {
  return apiJson<PayrollRunDetail>('GET', `${PAYROLL_RUNS_URL}/${id}`, undefined, { signal });
}

/** One run with its lines, adjustments and what the caller may do with it. */
export function payrollRunQueryOptions(id: string) {
  return queryOptions({ queryKey: [PAYROLL_RUNS_URL, id], queryFn: ({ signal }) => fetchPayrollRun(id, signal) });
}

export function usePayrollRun(id: string | null) {
  return useQuery({ ...payrollRunQueryOptions(id ?? ''), enabled: Boolean(id) });
}
