import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  PolicyEvaluateInput,
  PolicyEvaluateResult,
  PolicyOptions,
  PolicyRule,
  PolicyRuleForm,
  PolicyRuleVersion,
  PolicySimulateInput,
  PolicySimulateResult,
} from '@outlay/contracts/policies';
import { apiJson } from '@/lib/api-client';

export const POLICIES_URL = '/api/policies';

/** `GET /api/policies/options`: organizations, categories, vendors and departments for the rule forms. */
export function policyOptionsQueryOptions() {
  return queryOptions({
    queryKey: [POLICIES_URL, 'options'],
    queryFn: ({ signal }) => apiJson<PolicyOptions>('GET', `${POLICIES_URL}/options`, undefined, { signal }),
    staleTime: 60_000,
  });
}

export function usePolicyOptions() {
  return useQuery(policyOptionsQueryOptions());
}

/** `GET /api/policies/:id/versions`: every version of a rule, newest first. */
export function usePolicyVersions(id: string | null) {
  return useQuery({
    queryKey: [POLICIES_URL, id, 'versions'],
    queryFn: ({ signal }) =>
      apiJson<{ items: PolicyRuleVersion[] }>(
        'GET',
        `${POLICIES_URL}/${encodeURIComponent(id ?? '')}/versions`,
        undefined,
        { signal },
      ),
    enabled: Boolean(id),
    select: (data) => data.items,
  });
}

export function createPolicy(input: PolicyRuleForm) {
  return apiJson<PolicyRule>('POST', POLICIES_URL, input);
}

/** `headers` carries If-Match: the save is refused (412) when the rule changed since it was loaded. */
export function updatePolicy({
  id,
  input,
  headers,
}: {
  id: string;
  input: PolicyRuleForm;
  headers?: Record<string, string>;
}) {
  return apiJson<PolicyRule>('PUT', `${POLICIES_URL}/${encodeURIComponent(id)}`, input, { headers });
}

export function fetchPolicy(id: string) {
  return apiJson<PolicyRule>('GET', `${POLICIES_URL}/${encodeURIComponent(id)}`);
}

export function setPolicyActive({ id, active }: { id: string; active: boolean }) {
  return apiJson<PolicyRule>('PATCH', `${POLICIES_URL}/${encodeURIComponent(id)}/active`, { active });
}

export function deletePolicy(id: string) {
  return apiJson<unknown>('DELETE', `${POLICIES_URL}/${encodeURIComponent(id)}`);
}

function usePolicyMutation<V, R>(fn: (vars: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => queryClient.invalidateQueries({ queryKey: [POLICIES_URL] }) });
}

export const useCreatePolicy = () => usePolicyMutation(createPolicy);
export const useUpdatePolicy = () => usePolicyMutation(updatePolicy);
export const useSetPolicyActive = () => usePolicyMutation(setPolicyActive);
export const useDeletePolicy = () => usePolicyMutation(deletePolicy);

/** `POST /api/policies/simulate`: a saved or unsaved rule against the last N months of requests. */
export function simulatePolicy(input: PolicySimulateInput) {
  return apiJson<PolicySimulateResult>('POST', `${POLICIES_URL}/simulate`, input);
}

export function useSimulatePolicy() {
  return useMutation({ mutationFn: simulatePolicy });
}

/** `POST /api/policies/evaluate`: the findings of a draft request form (same engine as submission). */
export function evaluatePolicies(input: PolicyEvaluateInput, signal?: AbortSignal) {
  return apiJson<PolicyEvaluateResult>('POST', `${POLICIES_URL}/evaluate`, input, { signal });
}

/** Live findings for a (debounced) draft; keeps showing the last answer while the next one loads. */
export function usePolicyEvaluation(input: PolicyEvaluateInput | null) {
  return useQuery({
    queryKey: [POLICIES_URL, 'evaluate', input],
    queryFn: ({ signal }) => evaluatePolicies(input!, signal),
    enabled: input !== null,
    placeholderData: keepPreviousData,
    staleTime: 5_000,
    retry: false,
  });
}
