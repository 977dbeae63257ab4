import { apiJson } from '@/lib/api-client';
import { requestUrl } from './keys';

export function addComment(id: string, body: string) {
  return apiJson<unknown>('POST', `${requestUrl(id)}/comments`, { body });
}
