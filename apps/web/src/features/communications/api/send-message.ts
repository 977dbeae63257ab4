import { useMutation } from '@tanstack/react-query';
import type { Message } from '@outlay/contracts/communications';
import { apiJson } from '@/lib/api-client';
import { CONVERSATIONS_URL } from './conversations';
import { messagesUrl } from './messages';
import { useInvalidateCommunications } from './unread';

export function sendMessage({ conversationId, body }: { conversationId: string; body: string }) {
  return apiJson<Message>('POST', messagesUrl(conversationId), { body });
}

/** One file with an optional caption: the caption goes first, so the server reads it with the file. */
export function sendFile({ conversationId, file, body }: { conversationId: string; file: File; body: string }) {
  const form = new FormData();
  if (body) form.append('body', body);
  form.append('file', file, file.name);
  return apiJson<Message>('POST', `${CONVERSATIONS_URL}/${encodeURIComponent(conversationId)}/files`, form);
}

export function useSendMessage() {
  const invalidate = useInvalidateCommunications();
  return useMutation({
    mutationFn: (input: { conversationId: string; body: string; file?: File | null }) =>
      input.file
        ? sendFile({ conversationId: input.conversationId, body: input.body, file: input.file })
        : sendMessage(input),
    onSettled: () => invalidate(),
  });
}
