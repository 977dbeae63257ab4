import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CalendarUpcoming } from '@outlay/contracts/calendar';
import { apiJson } from '@/lib/api-client';
import { CALENDAR_UPCOMING_URL } from './keys';

/** `GET /api/calendar/upcoming`: the feed's events of the next 30 days. */
export function upcomingQuery() {
  return queryOptions({
    queryKey: [CALENDAR_UPCOMING_URL],
    queryFn: ({ signal }) => apiJson<CalendarUpcoming>('GET', CALENDAR_UPCOMING_URL, undefined, { signal }),
    select: (data) => data.events,
  });
}

export function useUpcoming() {
  return useQuery(upcomingQuery());
}
