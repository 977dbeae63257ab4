import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { approverOptions } from '@outlay/contracts/workflows';
import { apiJson } from '@/lib/api-client';
/** Also the query key's first element. */
export const APPROVER_OPTIONS_URL = '/api/workflows/approver-options';

export type ApproverOption = z.infer<typeof approverOptions>['items'][number];

/** `GET /api/workflows/approver-options?q&organizationId`: people who can approve, stand in or take over. */
export function approverOptionsQueryOptions(q: string, organizationId?: string | null) {
  const params = new URLSearchParams();
  if (q.trim()) params.set('q', q.trim());
  if (organizationId) params.set('organizationId', organizationId);
  const qs = params.toString();
  return queryOptions({
    queryKey: [APPROVER_OPTIONS_URL, { q: q.trim(), organizationId: organizationId ?? null }],
    queryFn: ({ signal }) =>
      apiJson<{ items: ApproverOption[] }>('GET', `${APPROVER_OPTIONS_URL}${qs ? `?${qs}` : ''}`, undefined, {
        signal,
      }),
    select: (data) => data.items,
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });
}

export function useApproverOptions(q: string, organizationId?: string | null, enabled = true) {
  return useQuery({ ...approverOptionsQueryOptions(q, organizationId), enabled });
}
