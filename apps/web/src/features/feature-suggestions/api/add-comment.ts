import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FeatureSuggestionCommentInput, FeatureSuggestionDetail } from '@outlay/contracts/feature-suggestions';
import { apiJson } from '@/lib/api-client';
import { FEATURE_SUGGESTIONS_URL } from './get-feature-suggestion';

export function addComment({ id, input }: { id: string; input: FeatureSuggestionCommentInput }) {
  return apiJson<FeatureSuggestionDetail>('POST', `${FEATURE_SUGGESTIONS_URL}/${id}/comments`, input);
}

export function useAddComment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addComment,
    onSuccess: (detail) => {
      queryClient.setQueryData([FEATURE_SUGGESTIONS_URL, detail.id], detail);
      return queryClient.invalidateQueries({ queryKey: [FEATURE_SUGGESTIONS_URL] });
    },
  });
}
