import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Role } from '@outlay/contracts/roles';
import type { BulkUserResult } from '@outlay/contracts/users';
import type { StepUp } from '@/components/form';
import { apiJson } from '@/lib/api-client';
import { invalidateUsers } from './users-keys';

/** `POST /api/users/bulk/role`: step-up protected; refused users are skipped and named. */
export function bulkChangeRole({ ids, role }: { ids: string[]; role: Role }) {
  return apiJson<BulkUserResult>('POST', '/api/users/bulk/role', { ids, role });
}

export function useBulkChangeRole(stepUp: StepUp) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: stepUp.withStepUp(bulkChangeRole), onSuccess: () => invalidateUsers(queryClient) });
}
