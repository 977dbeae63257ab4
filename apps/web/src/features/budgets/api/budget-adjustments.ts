import { queryOptions, useQuery } from '@tanstack/react-query';
import type { BudgetAdjustmentList } from '@outlay/contracts/budgets';
import { apiJson } from '@/lib/api-client';
import { BUDGET_LINES_URL } from './budget-lines';

/** `GET /api/budgets/lines/:id/adjustments`: the line's raises made with approved overruns. */
export function budgetAdjustmentsQueryOptions(lineId: string) {
  return queryOptions({
    queryKey: [BUDGET_LINES_URL, lineId, 'adjustments'],
    queryFn: ({ signal }) =>
      apiJson<BudgetAdjustmentList>('GET', `${BUDGET_LINES_URL}/${lineId}/adjustments`, undefined, { signal }),
  });
}

export function useBudgetAdjustments(lineId: string) {
  return useQuery(budgetAdjustmentsQueryOptions(lineId));
}
