import type { FlowRequest } from '@outlay/contracts/financial-flow';
import { useListQuery } from '@/components/data-table';
import { flowSearch, type FlowParams } from './get-financial-flow';

export const FLOW_REQUESTS_URL = '/api/financial-flow/requests';

/** The requests behind one node of the flow, within the same period, statuses and filters. */
export function useFlowRequests(node: string, p: FlowParams) {
  return useListQuery<FlowRequest>({
    url: FLOW_REQUESTS_URL,
    syncUrl: false,
    pageSize: 10,
    defaultSort: 'amount',
    defaultOrder: 'desc',
    params: { node, ...flowSearch(p) },
  });
}
