import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FeatureSuggestionVote } from '@outlay/contracts/feature-suggestions';
import { apiJson } from '@/lib/api-client';
import { FEATURE_SUGGESTIONS_URL } from './get-feature-suggestion';

/** PUT votes, DELETE takes the vote back; both can be repeated safely. */
export function setVote({ id, voted }: { id: string; voted: boolean }) {
  return apiJson<FeatureSuggestionVote>(voted ? 'PUT' : 'DELETE', `${FEATURE_SUGGESTIONS_URL}/${id}/vote`);
}

export function useVote() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setVote,
    onSettled: () => queryClient.invalidateQueries({ queryKey: [FEATURE_SUGGESTIONS_URL] }),
  });
}
