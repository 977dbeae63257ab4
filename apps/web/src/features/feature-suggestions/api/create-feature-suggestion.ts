import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateFeatureSuggestionInput, FeatureSuggestionDetail } from '@outlay/contracts/feature-suggestions';
import { apiJson } from '@/lib/api-client';
import { FEATURE_SUGGESTIONS_URL } from './get-feature-suggestion';

export function createFeatureSuggestion(input: CreateFeatureSuggestionInput) {
  return apiJson<FeatureSuggestionDetail>('POST', FEATURE_SUGGESTIONS_URL, input);
}

export function useCreateFeatureSuggestion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createFeatureSuggestion,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [FEATURE_SUGGESTIONS_URL] }),
  });
}
