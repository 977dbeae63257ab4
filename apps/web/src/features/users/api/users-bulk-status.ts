import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BulkUserResult } from '@outlay/contracts/users';
import { apiJson } from '@/lib/api-client';
import { invalidateUsers } from './users-keys';

/** `POST /api/users/bulk/activate|deactivate`: refused users are skipped and named. */
export function bulkSetUserStatus({ ids, active }: { ids: string[]; active: boolean }) {
  return apiJson<BulkUserResult>('POST', `/api/users/bulk/${active ? 'activate' : 'deactivate'}`, { ids });
}

export function useBulkSetUserStatus() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: bulkSetUserStatus, onSuccess: () => invalidateUsers(queryClient) });
}
