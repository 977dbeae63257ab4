import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { HelpAudience, TutorialList } from '@outlay/contracts/tutorials';
import { apiJson } from '@/lib/api-client';

export const TUTORIALS_URL = '/api/tutorials';

export interface TutorialFilter {
  q?: string;
  role?: HelpAudience | '';
  tag?: string;
}

export function fetchTutorials(filter: TutorialFilter, signal?: AbortSignal) {
  const params = new URLSearchParams({ pageSize: '100' });
  if (filter.q) params.set('q', filter.q);
  if (filter.role) params.set('role', filter.role);
  if (filter.tag) params.set('tag', filter.tag);
  return apiJson<TutorialList>('GET', `${TUTORIALS_URL}?${params}`, undefined, { signal });
}

/** The articles, searched on the server (title and body) and filtered by audience and tag. */
export function tutorialsQueryOptions(filter: TutorialFilter) {
  return queryOptions({
    queryKey: [TUTORIALS_URL, filter],
    queryFn: ({ signal }) => fetchTutorials(filter, signal),
    placeholderData: keepPreviousData,
  });
}

export function useTutorials(filter: TutorialFilter) {
  return useQuery(tutorialsQueryOptions(filter));
}
