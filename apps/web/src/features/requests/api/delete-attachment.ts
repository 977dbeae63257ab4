import { apiRequest } from '@/lib/api-client';
import { requestUrl } from './keys';

export function deleteAttachment(id: string, attachmentId: string) {
  return apiRequest('DELETE', `${requestUrl(id)}/attachments/${encodeURIComponent(attachmentId)}`);
}
