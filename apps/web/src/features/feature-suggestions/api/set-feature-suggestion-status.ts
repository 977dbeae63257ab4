import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FeatureSuggestionDetail, FeatureSuggestionStatusInput } from '@outlay/contracts/feature-suggestions';
import { apiJson } from '@/lib/api-client';
import { FEATURE_SUGGESTIONS_URL } from './get-feature-suggestion';

/** feedback.manage: the author is notified of the new status. */
export function setSuggestionStatus({ id, input }: { id: string; input: FeatureSuggestionStatusInput }) {
  return apiJson<FeatureSuggestionDetail>('POST', `${FEATURE_SUGGESTIONS_URL}/${id}/status`, input);
}

export function useSetSuggestionStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setSuggestionStatus,
    onSuccess: (detail) => {
      queryClient.setQueryData([FEATURE_SUGGESTIONS_URL, detail.id], detail);
      return queryClient.invalidateQueries({ queryKey: [FEATURE_SUGGESTIONS_URL] });
    },
  });
}
