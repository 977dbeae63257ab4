import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { NotificationPreferences, UpdateNotificationPreferences } from '@outlay/contracts/notifications';
import { apiJson } from '@/lib/api-client';

export const PREFERENCES_URL = '/api/notification-preferences';

export const preferencesQuery = queryOptions({
  queryKey: [PREFERENCES_URL],
  queryFn: ({ signal }) => apiJson<NotificationPreferences>('GET', PREFERENCES_URL, undefined, { signal }),
});

export function usePreferences() {
  return useQuery(preferencesQuery);
}

export function useSavePreferences() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateNotificationPreferences) => apiJson<NotificationPreferences>('PUT', PREFERENCES_URL, body),
    onSuccess: (data) => client.setQueryData(preferencesQuery.queryKey, data),
  });
}
