import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UserImportResponse } from '@outlay/contracts/users';
import { apiJson } from '@/lib/api-client';
import { invalidateUsers } from './users-keys';

/** `POST /api/users/import {csv, dryRun}`: a 400 carries the failing rows in `details`. */
export function importUsers(input: { csv: string; dryRun: boolean }) {
  return apiJson<UserImportResponse>('POST', '/api/users/import', input);
}

export function useImportUsers() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importUsers,
    onSuccess: (result) => (result.dryRun ? undefined : invalidateUsers(queryClient)),
  });
}
