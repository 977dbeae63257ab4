import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SimulateInput, SimulationResult, Workflow, WorkflowInput } from '@outlay/contracts/workflows';
import { apiJson } from '@/lib/api-client';
import { WORKFLOWS_URL } from './keys';

/** `GET /api/workflows?organizationId`: workflows with their steps and in-flight counts. */
export function workflowsQueryOptions(organizationId: string | undefined) {
  const qs = organizationId ? `?organizationId=${encodeURIComponent(organizationId)}` : '';
  return queryOptions({
    queryKey: [WORKFLOWS_URL, { organizationId: organizationId ?? null }],
    queryFn: ({ signal }) => apiJson<{ items: Workflow[] }>('GET', `${WORKFLOWS_URL}${qs}`, undefined, { signal }),
    select: (data) => data.items,
  });
}

export function useWorkflows(organizationId: string | undefined, enabled = true) {
  return useQuery({ ...workflowsQueryOptions(organizationId), enabled });
}

export function createWorkflow(input: WorkflowInput) {
  return apiJson<Workflow>('POST', WORKFLOWS_URL, input);
}

/** `headers` carries If-Match: the save is refused (412) when the workflow changed since it was loaded. */
export function updateWorkflow({
  id,
  input,
  headers,
}: {
  id: string;
  input: WorkflowInput;
  headers?: Record<string, string>;
}) {
  return apiJson<Workflow>('PUT', `${WORKFLOWS_URL}/${encodeURIComponent(id)}`, input, { headers });
}

export function fetchWorkflow(id: string) {
  return apiJson<Workflow>('GET', `${WORKFLOWS_URL}/${encodeURIComponent(id)}`);
}

export function deleteWorkflow(id: string) {
  return apiJson<unknown>('DELETE', `${WORKFLOWS_URL}/${encodeURIComponent(id)}`);
}

function useWorkflowMutation<V, R>(fn: (vars: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => queryClient.invalidateQueries({ queryKey: [WORKFLOWS_URL] }) });
}

export const useCreateWorkflow = () => useWorkflowMutation(createWorkflow);
export const useUpdateWorkflow = () => useWorkflowMutation(updateWorkflow);
export const useDeleteWorkflow = () => useWorkflowMutation(deleteWorkflow);

/** `POST /api/workflows/simulate`: a sample request through the engine (optionally with an unsaved workflow). */
export function simulateWorkflow(input: SimulateInput) {
  return apiJson<SimulationResult>('POST', `${WORKFLOWS_URL}/simulate`, input);
}

export function useSimulateWorkflow() {
  return useMutation({ mutationFn: simulateWorkflow });
}
