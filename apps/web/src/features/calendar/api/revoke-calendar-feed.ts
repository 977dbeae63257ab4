import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { CALENDAR_FEED_URL, invalidateCalendarFeed } from './keys';

/** `DELETE /api/calendar/feed`: calendars subscribed to the link get nothing more. */
export async function revokeFeed() {
  await apiRequest('DELETE', CALENDAR_FEED_URL);
}

export function useRevokeFeed() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: revokeFeed, onSuccess: () => invalidateCalendarFeed(queryClient) });
}
