import { queryOptions, useQuery } from '@tanstack/react-query';
import type { IntercompanyCandidate } from '@outlay/contracts/organizations';
import { apiJson } from '@/lib/api-client';
import { INTERCOMPANY_LINKS_URL } from './keys';

const URL = `${INTERCOMPANY_LINKS_URL}/candidates`;

/** Vendors of an organization not yet linked to a group company. */
export function intercompanyCandidatesQuery(organizationId: string) {
  return queryOptions({
    queryKey: [URL, { organizationId }],
    queryFn: ({ signal }) =>
      apiJson<{ items: IntercompanyCandidate[] }>(
        'GET',
        `${URL}?organizationId=${encodeURIComponent(organizationId)}`,
        undefined,
        { signal },
      ),
    select: (data) => data.items,
  });
}

export function useIntercompanyCandidates(organizationId: string | null | undefined) {
  return useQuery({ ...intercompanyCandidatesQuery(organizationId ?? ''), enabled: Boolean(organizationId) });
}
