import {
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_MAX_PER_REQUEST,
  ATTACHMENT_MESSAGES,
  ATTACHMENT_TYPES,
  type Attachment,
} from '@outlay/contracts/requests';
import { apiJson } from '@/lib/api-client';
import { requestUrl } from './keys';

export function uploadAttachment(id: string, file: File) {
  const form = new FormData();
  form.append('file', file, file.name);
  return apiJson<Attachment>('POST', `${requestUrl(id)}/attachments`, form);
}

/** The client-side check before an upload (the server checks the content again). */
export function attachmentProblem(file: File, alreadyAttached = 0): string | null {
  if (!(ATTACHMENT_TYPES as readonly string[]).includes(file.type)) return ATTACHMENT_MESSAGES.type;
  if (file.size > ATTACHMENT_MAX_BYTES) return ATTACHMENT_MESSAGES.size;
  if (alreadyAttached >= ATTACHMENT_MAX_PER_REQUEST) return ATTACHMENT_MESSAGES.count;
  return null;
}
