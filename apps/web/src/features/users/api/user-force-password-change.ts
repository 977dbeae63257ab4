import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UserItem } from '@outlay/contracts/users';
import { apiJson } from '@/lib/api-client';
import { invalidateUsers } from './users-keys';

/** `POST /api/users/:id/force-password-change`: their next call asks for a new password. */
export function forcePasswordChange(id: string) {
  return apiJson<{ message: string; user: UserItem }>(
    'POST',
    `/api/users/${encodeURIComponent(id)}/force-password-change`,
  );
}

export function useForcePasswordChange() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: forcePasswordChange, onSuccess: () => invalidateUsers(queryClient) });
}
