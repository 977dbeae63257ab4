import {
  IDEMPOTENCY_HEADER,
  type CreateRequestInput,
  type RequestDetail,
  type UpdateRequestInput,
} from '@outlay/contracts/requests';
import { REQUESTS_URL, requestUrl } from './keys';
import { apiJson } from '@/lib/api-client';

/** `POST /api/requests` (a draft). The key makes a retried attempt create nothing new. */
export function createRequest(input: CreateRequestInput, idempotencyKey: string) {
  return apiJson<RequestDetail>('POST', REQUESTS_URL, input, { headers: { [IDEMPOTENCY_HEADER]: idempotencyKey } });
}

/**
 * `PATCH /api/requests/:id`: drafts and requests sent back for information; lists replace the
 * stored ones. `headers` carries If-Match: refused (412) when the request changed since it was loaded.
 */
export function updateRequest(id: string, input: UpdateRequestInput, headers?: Record<string, string>) {
  return apiJson<RequestDetail>('PATCH', requestUrl(id), input, { headers });
}
