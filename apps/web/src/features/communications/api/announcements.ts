import { useInfiniteQuery } from '@tanstack/react-query';
import type { AnnouncementPage } from '@outlay/contracts/communications';
import { apiJson } from '@/lib/api-client';

export const ANNOUNCEMENTS_URL = '/api/communications/announcements';
const PAGE = 20;

/** Announcements addressed to the caller, newest first; more pages by keyset cursor. */
export function useAnnouncements() {
  return useInfiniteQuery({
    queryKey: [ANNOUNCEMENTS_URL],
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) => {
      const search = new URLSearchParams({ limit: String(PAGE) });
      if (pageParam) search.set('cursor', pageParam);
      return apiJson<AnnouncementPage>('GET', `${ANNOUNCEMENTS_URL}?${search.toString()}`, undefined, { signal });
    },
    getNextPageParam: (last) => last.nextCursor,
  });
}
