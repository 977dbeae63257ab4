import { useMutation } from '@tanstack/react-query';
import type { Conversation } from '@outlay/contracts/communications';
import { apiJson } from '@/lib/api-client';
import { CONVERSATIONS_URL } from './conversations';
import { useInvalidateCommunications } from './unread';

export function markConversationRead(conversationId: string) {
  return apiJson<Conversation>('POST', `${CONVERSATIONS_URL}/${encodeURIComponent(conversationId)}/read`);
}

export function useMarkConversationRead() {
  const invalidate = useInvalidateCommunications();
  return useMutation({ mutationFn: markConversationRead, onSettled: () => invalidate() });
}
