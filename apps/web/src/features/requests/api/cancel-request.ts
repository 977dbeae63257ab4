import type { RequestDetail } from '@outlay/contracts/requests';
import { apiJson } from '@/lib/api-client';
import { requestUrl } from './keys';

export function cancelRequest(id: string, reason?: string) {
  return apiJson<RequestDetail>('POST', `${requestUrl(id)}/cancel`, { reason: reason ?? null });
}
