import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdateUserInput, UserItem } from '@outlay/contracts/users';
import { apiJson } from '@/lib/api-client';
import { invalidateUsers } from './users-keys';

/** `PUT /api/users/:id`: names, e-mail, phone, organization, department, manager (never the role). */
export function updateUser({ id, input }: { id: string; input: UpdateUserInput }) {
  return apiJson<UserItem>('PUT', `/api/users/${encodeURIComponent(id)}`, input);
}

export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateUser, onSuccess: () => invalidateUsers(queryClient) });
}
