import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdateUserInput, UserItem } from '@outlay/contracts/users';
import { apiJson } from '@/lib/api-client';
import { invalidateUsers } from './users-keys';

/** `PUT /api/users/:id`: names, e-mail, phone, organization, department, manager (never the role). */
export function updateUser({
  id,
  input,
  headers,
}: {
  id: string;
  input: UpdateUserInput;
  headers?: Record<string, string>;
}) {
  return apiJson<UserItem>('PUT', `/api/users/${encodeURIComponent(id)}`, input, { headers });
}

export function fetchUser(id: string) {
  return apiJson<UserItem>('GET', `/api/users/${encodeURIComponent(id)}`);
}

export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateUser, onSuccess: () => invalidateUsers(queryClient) });
}
