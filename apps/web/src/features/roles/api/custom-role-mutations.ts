import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CustomRole, CustomRoleInput } from '@outlay/contracts/roles';
import type { StepUp } from '@/components/form';
import { apiJson } from '@/lib/api-client';
import { ROLES_URL } from './role-overview';

export const CUSTOM_ROLES_URL = '/api/custom-roles';
export const customRoleHoldersUrl = (id: string) => `${CUSTOM_ROLES_URL}/${id}/holders`;

export function createCustomRole(input: CustomRoleInput) {
  return apiJson<CustomRole>('POST', CUSTOM_ROLES_URL, input);
}
export function updateCustomRole({ id, input }: { id: string; input: CustomRoleInput }) {
  return apiJson<CustomRole>('PUT', `${CUSTOM_ROLES_URL}/${id}`, input);
}
export function deleteCustomRole(id: string) {
  return apiJson<{ message: string }>('DELETE', `${CUSTOM_ROLES_URL}/${id}`);
}

function useRefresh() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: [CUSTOM_ROLES_URL] });
    void queryClient.invalidateQueries({ queryKey: [ROLES_URL] });
  };
}

/** Every change to a custom role is step-up protected (docs/product.md §2.10). */
export function useCreateCustomRole(stepUp: StepUp) {
  return useMutation({ mutationFn: stepUp.withStepUp(createCustomRole), onSuccess: useRefresh() });
}
export function useUpdateCustomRole(stepUp: StepUp) {
  return useMutation({ mutationFn: stepUp.withStepUp(updateCustomRole), onSuccess: useRefresh() });
}
export function useDeleteCustomRole(stepUp: StepUp) {
  return useMutation({ mutationFn: stepUp.withStepUp(deleteCustomRole), onSuccess: useRefresh() });
}
