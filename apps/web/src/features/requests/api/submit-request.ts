import { IDEMPOTENCY_HEADER, type RequestDetail } from '@outlay/contracts/requests';
import { apiJson } from '@/lib/api-client';
import { requestUrl } from './keys';

export function submitRequest(id: string, idempotencyKey: string) {
  return apiJson<RequestDetail>(
    'POST',
    `${requestUrl(id)}/submit`,
    {},
    { headers: { [IDEMPOTENCY_HEADER]: idempotencyKey } },
  );
}
