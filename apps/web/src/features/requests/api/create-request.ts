import { IDEMPOTENCY_HEADER, type CreateRequestInput, type RequestDetail } from '@outlay/contracts/requests';
import { apiJson } from '@/lib/api-client';
import { REQUESTS_URL } from './keys';

/** `POST /api/requests` (a draft). The key makes a retried attempt create nothing new. */
export function createRequest(input: CreateRequestInput, idempotencyKey: string) {
  return apiJson<RequestDetail>('POST', REQUESTS_URL, input, { headers: { [IDEMPOTENCY_HEADER]: idempotencyKey } });
}
