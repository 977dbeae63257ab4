import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CalendarFeedStatus } from '@outlay/contracts/calendar';
import { apiJson } from '@/lib/api-client';
import { CALENDAR_FEED_URL } from './keys';

/** `GET /api/calendar/feed`: whether my subscription link exists (never the link itself). */
export function feedStatusQuery() {
  return queryOptions({
    queryKey: [CALENDAR_FEED_URL],
    queryFn: ({ signal }) => apiJson<CalendarFeedStatus>('GET', CALENDAR_FEED_URL, undefined, { signal }),
  });
}

export function useFeedStatus() {
  return useQuery(feedStatusQuery());
}
