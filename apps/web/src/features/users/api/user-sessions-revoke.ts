import type { RevokeSessionsResponse } from '@outlay/contracts/users';
import { apiJson } from '@/lib/api-client';

/** `DELETE /api/sessions/:id` (step-up for another user's session). */
export function revokeSession(id: string) {
  return apiJson<RevokeSessionsResponse>('DELETE', `/api/sessions/${encodeURIComponent(id)}`);
}

/** `POST /api/users/:id/sessions/revoke-all` (step-up for another user; your own keeps this one). */
export function revokeAllSessions(userId: string) {
  return apiJson<RevokeSessionsResponse>('POST', `/api/users/${encodeURIComponent(userId)}/sessions/revoke-all`);
}
