import type { RequestDetail } from '@outlay/contracts/requests';
import { apiJson } from '@/lib/api-client';
import { requestUrl } from './keys';

export function respondToRequest(id: string, message: string) {
  return apiJson<RequestDetail>('POST', `${requestUrl(id)}/respond`, { message });
}
