import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UserItem } from '@outlay/contracts/users';
import { apiJson } from '@/lib/api-client';
import { invalidateUsers } from './users-keys';

/** `POST /api/users/:id/activate|deactivate`; deactivating ends every session of the user at once. */
export function setUserStatus({ id, active }: { id: string; active: boolean }) {
  return apiJson<UserItem>('POST', `/api/users/${encodeURIComponent(id)}/${active ? 'activate' : 'deactivate'}`);
}

export function useSetUserStatus() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: setUserStatus, onSuccess: () => invalidateUsers(queryClient) });
}
