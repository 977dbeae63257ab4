import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  MarkAllReadResult,
  NotificationItem,
  NotificationPage,
  UnreadCount,
} from '@outlay/contracts/notifications';
import { apiJson } from '@/lib/api-client';

export const NOTIFICATIONS_URL = '/api/notifications';
export const UNREAD_COUNT_URL = '/api/notifications/unread-count';

export interface NotificationListParams {
  page: number;
  pageSize: number;
  unreadOnly: boolean;
  type?: string;
}

export function notificationsQuery(params: NotificationListParams) {
  const search = new URLSearchParams({ page: String(params.page), pageSize: String(params.pageSize) });
  if (params.unreadOnly) search.set('unread', 'true');
  if (params.type) search.set('type', params.type);
  return queryOptions({
    queryKey: [NOTIFICATIONS_URL, params.page, params.pageSize, params.unreadOnly, params.type ?? null],
    queryFn: ({ signal }) =>
      apiJson<NotificationPage>('GET', `${NOTIFICATIONS_URL}?${search.toString()}`, undefined, { signal }),
  });
}

export function useNotifications(params: NotificationListParams) {
  return useQuery({ ...notificationsQuery(params), placeholderData: keepPreviousData });
}

export const unreadCountQuery = queryOptions({
  queryKey: [UNREAD_COUNT_URL],
  queryFn: ({ signal }) => apiJson<UnreadCount>('GET', UNREAD_COUNT_URL, undefined, { signal }),
  // Live events refresh it; this is only the safety net.
  refetchInterval: 5 * 60_000,
});

export function useUnreadCount(enabled = true) {
  return useQuery({ ...unreadCountQuery, enabled });
}

/** Everything that shows notifications: the list pages and the top bar's count. */
export function useInvalidateNotifications() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: [NOTIFICATIONS_URL] }),
      client.invalidateQueries({ queryKey: [UNREAD_COUNT_URL] }),
    ]);
}

export function useMarkRead() {
  const invalidate = useInvalidateNotifications();
  return useMutation({
    mutationFn: (id: string) => apiJson<NotificationItem>('POST', `${NOTIFICATIONS_URL}/${id}/read`),
    onSuccess: () => invalidate(),
  });
}

export function useMarkAllRead() {
  const invalidate = useInvalidateNotifications();
  return useMutation({
    mutationFn: () => apiJson<MarkAllReadResult>('POST', `${NOTIFICATIONS_URL}/read-all`),
    onSuccess: () => invalidate(),
  });
}
