import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateUserInput, TemporaryPasswordResponse } from '@outlay/contracts/users';
import { apiJson } from '@/lib/api-client';
import { invalidateUsers } from './users-keys';

/** `POST /api/users`: the answer carries the one-time temporary password. */
export function createUser(input: CreateUserInput) {
  return apiJson<TemporaryPasswordResponse>('POST', '/api/users', input);
}

export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createUser, onSuccess: () => invalidateUsers(queryClient) });
}
