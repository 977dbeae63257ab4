import { useMutation } from '@tanstack/react-query';
import type { Conversation, CreateConversationInput } from '@outlay/contracts/communications';
import { apiJson } from '@/lib/api-client';
import { CONVERSATIONS_URL } from './conversations';
import { useInvalidateCommunications } from './unread';

export function createConversation(input: CreateConversationInput) {
  return apiJson<Conversation>('POST', CONVERSATIONS_URL, input);
}

export function useCreateConversation() {
  const invalidate = useInvalidateCommunications();
  return useMutation({ mutationFn: createConversation, onSettled: () => invalidate() });
}
