import type { TemporaryPasswordResponse } from '@outlay/contracts/users';
import { apiJson } from '@/lib/api-client';

/** `POST /api/users/:id/reset-password` (step-up): the answer carries the one-time temporary password. */
export function resetUserPassword(id: string) {
  return apiJson<TemporaryPasswordResponse>('POST', `/api/users/${encodeURIComponent(id)}/reset-password`);
}
