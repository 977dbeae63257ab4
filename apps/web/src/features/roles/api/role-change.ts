import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Role, UserAccess } from '@outlay/contracts/roles';
import type { StepUp } from '@/components/form';
import { apiJson } from '@/lib/api-client';
import { ROLES_URL } from './role-overview';
import { CUSTOM_ROLES_URL } from './custom-role-mutations';

export function changeRole({ userId, role }: { userId: string; role: Role }) {
  return apiJson<UserAccess>('PUT', `/api/users/${userId}/role`, { role });
}

export function assignCustomRole({ userId, customRoleId }: { userId: string; customRoleId: string | null }) {
  return apiJson<UserAccess>('PUT', `/api/users/${userId}/custom-role`, { customRoleId });
}

function useRefreshRoles() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: [ROLES_URL] });
    void queryClient.invalidateQueries({ queryKey: [CUSTOM_ROLES_URL] });
    void queryClient.invalidateQueries({ queryKey: ['/api/users'] });
  };
}

/** Step-up protected (docs/product.md §2.10): a stale confirmation asks for the password and retries. */
export function useChangeRole(stepUp: StepUp) {
  const refresh = useRefreshRoles();
  return useMutation({ mutationFn: stepUp.withStepUp(changeRole), onSuccess: refresh });
}

export function useAssignCustomRole(stepUp: StepUp) {
  const refresh = useRefreshRoles();
  return useMutation({ mutationFn: stepUp.withStepUp(assignCustomRole), onSuccess: refresh });
}
