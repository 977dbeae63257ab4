import { useInfiniteQuery } from '@tanstack/react-query';
import type { MessagePage } from '@outlay/contracts/communications';
import { apiJson } from '@/lib/api-client';
import { CONVERSATIONS_URL } from './conversations';

const PAGE = 30;

export function messagesUrl(conversationId: string) {
  return `${CONVERSATIONS_URL}/${encodeURIComponent(conversationId)}/messages`;
}

/** A conversation's history, newest page first; older pages by keyset cursor. */
export function useMessages(conversationId: string | null) {
  return useInfiniteQuery({
    queryKey: [messagesUrl(conversationId ?? ''), conversationId],
    enabled: Boolean(conversationId),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) => {
      const search = new URLSearchParams({ limit: String(PAGE) });
      if (pageParam) search.set('cursor', pageParam);
      return apiJson<MessagePage>('GET', `${messagesUrl(conversationId!)}?${search.toString()}`, undefined, { signal });
    },
    getNextPageParam: (last) => last.nextCursor,
  });
}
