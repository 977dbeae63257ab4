import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BudgetOverrun, BudgetOverrunDecisionInput } from '@outlay/contracts/budgets';
import { apiJson } from '@/lib/api-client';
import { BUDGET_LINES_URL } from './budget-lines';

export const BUDGET_OVERRUNS_URL = '/api/budgets/overruns';

/** Approve or reject a budget overrun with a note (one transaction with the request's approval). */
export function decideOverrun(requestId: string, input: BudgetOverrunDecisionInput) {
  return apiJson<BudgetOverrun>('POST', `${BUDGET_OVERRUNS_URL}/${requestId}/decide`, input);
}

export function useDecideOverrun() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ requestId, input }: { requestId: string; input: BudgetOverrunDecisionInput }) =>
      decideOverrun(requestId, input),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: [BUDGET_OVERRUNS_URL] }),
        queryClient.invalidateQueries({ queryKey: [BUDGET_LINES_URL] }),
        queryClient.invalidateQueries({ queryKey: ['/api/approvals'] }),
        queryClient.invalidateQueries({ queryKey: ['/api/requests'] }),
      ]),
  });
}
