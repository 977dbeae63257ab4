import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Consolidation, ConsolidationGranularity } from '@outlay/contracts/consolidation';

export const CONSOLIDATION_URL = '/api/consolidation';

export interface ConsolidationParams {
  from: string;
  to: string;
  granularity: ConsolidationGranularity;
  organizationId?: string;
}

/** The consolidated table: spend and payroll per company per period in the group currency, with eliminations. */
export function consolidationQueryOptions(p: ConsolidationParams) {
  return queryOptions<Consolidation>({
    // The generic query function: [path, status, name, value, …].
    queryKey: [
      CONSOLIDATION_URL,
      undefined,
      'from',
      p.from,
      'to',
      p.to,
      'granularity',
      p.granularity,
      'organizationId',
      p.organizationId,
    ],
    placeholderData: keepPreviousData,
  });
}

export function useConsolidation(p: ConsolidationParams) {
  return useQuery(consolidationQueryOptions(p));
}
