import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CalendarFeedCreated } from '@outlay/contracts/calendar';
import { apiJson } from '@/lib/api-client';
import { CALENDAR_FEED_URL, invalidateCalendarFeed } from './keys';

/** `POST /api/calendar/feed`: a new link, replacing the old one; its path is in this answer only. */
export function createFeed() {
  return apiJson<CalendarFeedCreated>('POST', CALENDAR_FEED_URL);
}

export function useCreateFeed() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createFeed, onSuccess: () => invalidateCalendarFeed(queryClient) });
}
