import { queryOptions, useQuery } from '@tanstack/react-query';
import type { FeatureSuggestionDetail } from '@outlay/contracts/feature-suggestions';
import { apiJson } from '@/lib/api-client';

/** The list reads this URL through the list protocol (useListQuery); the rest of the feature builds on it. */
export const FEATURE_SUGGESTIONS_URL = '/api/feature-suggestions';

export function fetchFeatureSuggestion(id: string, signal?: AbortSignal) {
  return apiJson<FeatureSuggestionDetail>('GET', `${FEATURE_SUGGESTIONS_URL}/${id}`, undefined, { signal });
}

export function featureSuggestionQueryOptions(id: string) {
  return queryOptions({
    queryKey: [FEATURE_SUGGESTIONS_URL, id],
    queryFn: ({ signal }) => fetchFeatureSuggestion(id, signal),
  });
}

/** One suggestion with its comments. */
export function useFeatureSuggestion(id: string | null) {
  return useQuery({ ...featureSuggestionQueryOptions(id ?? ''), enabled: Boolean(id) });
}
