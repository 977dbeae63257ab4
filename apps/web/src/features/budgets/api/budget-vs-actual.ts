import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { BudgetPeriodType, BudgetVsActual } from '@outlay/contracts/budgets';
import { BUDGET_VS_ACTUAL_URL } from './budget-lines';

export interface BudgetVsActualParams {
  periodType: BudgetPeriodType;
  date: string;
  organizationId?: string;
  departmentId?: string;
}

/** Budget, committed, actual, remaining and variance per line for a period and scope. */
export function budgetVsActualQueryOptions(p: BudgetVsActualParams) {
  return queryOptions<BudgetVsActual>({
    // The generic query function: [path, status, name, value, …].
    queryKey: [
      BUDGET_VS_ACTUAL_URL,
      undefined,
      'periodType',
      p.periodType,
      'date',
      p.date,
      'organizationId',
      p.organizationId,
      'departmentId',
      p.departmentId,
    ],
    placeholderData: keepPreviousData,
  });
}

export function useBudgetVsActual(p: BudgetVsActualParams) {
  return useQuery(budgetVsActualQueryOptions(p));
}
