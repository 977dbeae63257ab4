import { useQuery } from '@tanstack/react-query';
import type { ConversationList } from '@outlay/contracts/communications';
import { apiJson } from '@/lib/api-client';

export const CONVERSATIONS_URL = '/api/communications/conversations';

/** The caller's conversations, most recently active first, with unread counts. */
export function useConversations() {
  return useQuery({
    queryKey: [CONVERSATIONS_URL],
    queryFn: ({ signal }) => apiJson<ConversationList>('GET', CONVERSATIONS_URL, undefined, { signal }),
  });
}
