import type { PayRequestInput, RequestDetail } from '@outlay/contracts/requests';
import { apiJson } from '@/lib/api-client';
import { requestUrl } from './keys';

export function payRequest(id: string, input: PayRequestInput) {
  return apiJson<RequestDetail>('POST', `${requestUrl(id)}/pay`, input);
}
