import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AutoApprovalRule, AutoApprovalRuleInput } from '@outlay/contracts/routing';
import { apiJson } from '@/lib/api-client';
import { AUTO_APPROVAL_RULES_URL } from './keys';

export function autoApprovalRulesQueryOptions() {
  return queryOptions({
    queryKey: [AUTO_APPROVAL_RULES_URL],
    queryFn: ({ signal }) =>
      apiJson<{ items: AutoApprovalRule[] }>('GET', AUTO_APPROVAL_RULES_URL, undefined, { signal }),
    select: (data) => data.items,
  });
}

export function useAutoApprovalRules(enabled = true) {
  return useQuery({ ...autoApprovalRulesQueryOptions(), enabled });
}

export function createAutoApprovalRule(input: AutoApprovalRuleInput) {
  return apiJson<AutoApprovalRule>('POST', AUTO_APPROVAL_RULES_URL, input);
}

export function updateAutoApprovalRule({ id, input }: { id: string; input: AutoApprovalRuleInput }) {
  return apiJson<AutoApprovalRule>('PUT', `${AUTO_APPROVAL_RULES_URL}/${encodeURIComponent(id)}`, input);
}

export function deleteAutoApprovalRule(id: string) {
  return apiJson<unknown>('DELETE', `${AUTO_APPROVAL_RULES_URL}/${encodeURIComponent(id)}`);
}

function useRuleMutation<V, R>(fn: (vars: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [AUTO_APPROVAL_RULES_URL] }),
  });
}

export const useCreateAutoApprovalRule = () => useRuleMutation(createAutoApprovalRule);
export const useUpdateAutoApprovalRule = () => useRuleMutation(updateAutoApprovalRule);
export const useDeleteAutoApprovalRule = () => useRuleMutation(deleteAutoApprovalRule);
