import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { TutorialDetail } from '@outlay/contracts/tutorials';
import { apiJson } from '@/lib/api-client';
import { TUTORIALS_URL } from './tutorials';

export function fetchTutorial(slug: string, signal?: AbortSignal) {
  return apiJson<TutorialDetail>('GET', `${TUTORIALS_URL}/${encodeURIComponent(slug)}`, undefined, { signal });
}

export function tutorialQueryOptions(slug: string) {
  return queryOptions({ queryKey: [TUTORIALS_URL, slug], queryFn: ({ signal }) => fetchTutorial(slug, signal) });
}

/**
 * One article. Opening it marks it read on the server, so once it has arrived the list (read
 * badges) and the onboarding checklist ("read a how-to article") are asked again.
 */
export function useTutorial(slug: string | null) {
  const queryClient = useQueryClient();
  const query = useQuery({ ...tutorialQueryOptions(slug ?? ''), enabled: Boolean(slug) });
  const loadedSlug = query.data?.slug;
  useEffect(() => {
    if (!loadedSlug) return;
    void queryClient.invalidateQueries({
      queryKey: [TUTORIALS_URL],
      predicate: (q) => typeof q.queryKey[1] === 'object',
    });
    void queryClient.invalidateQueries({ queryKey: ['/api/onboarding'] });
  }, [loadedSlug, queryClient]);
  return query;
}
