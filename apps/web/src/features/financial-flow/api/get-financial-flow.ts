import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { FinancialFlow, FlowStatus } from '@outlay/contracts/financial-flow';

export const FINANCIAL_FLOW_URL = '/api/financial-flow';

export interface FlowParams {
  from: string;
  to: string;
  statuses: FlowStatus[];
  organizationId?: string;
  departmentId?: string;
  categoryId?: string;
}

/** The flow's query parameters, shared with the requests behind a node. */
export function flowSearch(p: FlowParams): Record<string, string | undefined> {
  return {
    from: p.from,
    to: p.to,
    status: p.statuses.join(','),
    organizationId: p.organizationId,
    departmentId: p.departmentId,
    categoryId: p.categoryId,
  };
}

/** Organization → department → category → vendor for a period and statuses, in the group currency. */
export function financialFlowQueryOptions(p: FlowParams) {
  return queryOptions<FinancialFlow>({
    // The generic query function: [path, status, name, value, …].
    queryKey: [
      FINANCIAL_FLOW_URL,
      p.statuses.join(','),
      'from',
      p.from,
      'to',
      p.to,
      'organizationId',
      p.organizationId,
      'departmentId',
      p.departmentId,
      'categoryId',
      p.categoryId,
    ],
    placeholderData: keepPreviousData,
  });
}

export function useFinancialFlow(p: FlowParams) {
  return useQuery(financialFlowQueryOptions(p));
}
