import type { QueryClient } from '@tanstack/react-query';

/** The calendar endpoints; every query key of this feature starts with one of them. */
export const CALENDAR_FEED_URL = '/api/calendar/feed';
export const CALENDAR_UPCOMING_URL = '/api/calendar/upcoming';

export function invalidateCalendarFeed(queryClient: QueryClient) {
  return queryClient.invalidateQueries({ queryKey: [CALENDAR_FEED_URL] });
}
