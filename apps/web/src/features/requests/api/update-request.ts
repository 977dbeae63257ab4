import type { RequestDetail, UpdateRequestInput } from '@outlay/contracts/requests';
import { apiJson } from '@/lib/api-client';
import { requestUrl } from './keys';

/**
 * `PATCH /api/requests/:id`: drafts and requests sent back for information; lists replace the
 * stored ones. `headers` carries If-Match: refused (412) when the request changed since it was loaded.
 */
export function updateRequest(id: string, input: UpdateRequestInput, headers?: Record<string, string>) {
  return apiJson<RequestDetail>('PATCH', requestUrl(id), input, { headers });
}
