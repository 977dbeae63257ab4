import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FindingRuleInput } from '@outlay/contracts/findings';
import type { PolicyRule } from '@outlay/contracts/policies';
import { apiJson } from '@/lib/api-client';
import { FINDINGS_URL } from './findings';

/** Needs policies.manage: the rule is made by the policies service, and the finding is then dismissed. */
export function createRuleFromFinding(input: FindingRuleInput) {
  return apiJson<PolicyRule>('POST', `${FINDINGS_URL}/rules`, input);
}

export function useCreateRuleFromFinding() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createRuleFromFinding,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: [FINDINGS_URL] }),
        queryClient.invalidateQueries({ queryKey: ['/api/policies'] }),
      ]),
  });
}
