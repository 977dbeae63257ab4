import type { ConsolidationRequest } from '@outlay/contracts/consolidation';
import { useListQuery } from '@/components/data-table';

export const CONSOLIDATION_REQUESTS_URL = '/api/consolidation/requests';

/** The requests behind a company's (and a category's) consolidated spend, in the list protocol. */
export function useConsolidationRequests(p: {
  organizationId: string;
  categoryId?: string | null;
  from: string;
  to: string;
}) {
  return useListQuery<ConsolidationRequest>({
    url: CONSOLIDATION_REQUESTS_URL,
    params: { organizationId: p.organizationId, categoryId: p.categoryId ?? undefined, from: p.from, to: p.to },
    defaultSort: 'decidedAt',
    defaultOrder: 'desc',
    syncUrl: false,
    pageSize: 10,
  });
}
