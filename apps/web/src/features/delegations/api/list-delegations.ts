import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Delegation } from '@outlay/contracts/delegations';
import { apiJson } from '@/lib/api-client';
import { DELEGATIONS_URL } from './keys';

/** `GET /api/delegations` (the caller's own) or, for approvals.manage, `?all=true` (everyone in scope). */
export function delegationsQueryOptions(all: boolean) {
  return queryOptions({
    queryKey: [DELEGATIONS_URL, { all }],
    queryFn: ({ signal }) =>
      apiJson<{ items: Delegation[] }>('GET', all ? `${DELEGATIONS_URL}?all=true` : DELEGATIONS_URL, undefined, {
        signal,
      }),
    select: (data) => data.items,
  });
}

export function useDelegations(all: boolean, enabled = true) {
  return useQuery({ ...delegationsQueryOptions(all), enabled });
}
