import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AgingBasis, AgingReport } from '@outlay/contracts/payables';

export const AGING_URL = '/api/payables/aging';

export interface AgingParams {
  asOf: string;
  basis: AgingBasis;
  organizationId?: string;
}

/** What was owed to each vendor on `asOf`, in the five buckets, in the group currency. */
export function agingQueryOptions(p: AgingParams) {
  return queryOptions<AgingReport>({
    // The generic query function: [path, status, name, value, …].
    queryKey: [AGING_URL, undefined, 'asOf', p.asOf, 'basis', p.basis, 'organizationId', p.organizationId],
    placeholderData: keepPreviousData,
  });
}

export function useAging(p: AgingParams) {
  return useQuery(agingQueryOptions(p));
}

/** `GET /api/payables/aging/export?format=…&<the same filters>`. */
export function agingExportUrl(format: 'csv' | 'xlsx' | 'pdf', p: AgingParams): string {
  const params = new URLSearchParams({ format, asOf: p.asOf, basis: p.basis });
  if (p.organizationId) params.set('organizationId', p.organizationId);
  return `${AGING_URL}/export?${params.toString()}`;
}
