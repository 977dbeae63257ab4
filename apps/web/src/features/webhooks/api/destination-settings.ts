import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { WEBHOOK_SETTINGS_URL } from './keys';

interface DestinationSettings {
  allowPrivateDestinations: boolean;
}

/** `GET /api/webhooks/settings`: whether webhooks may reach loopback and private addresses. */
export function destinationSettingsQuery() {
  return queryOptions({
    queryKey: [WEBHOOK_SETTINGS_URL],
    queryFn: ({ signal }) => apiJson<DestinationSettings>('GET', WEBHOOK_SETTINGS_URL, undefined, { signal }),
  });
}

export function useDestinationSettings(enabled: boolean) {
  return useQuery({ ...destinationSettingsQuery(), enabled });
}

/** `PUT /api/webhooks/settings`. */
export function useUpdateDestinationSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: DestinationSettings) => apiJson<DestinationSettings>('PUT', WEBHOOK_SETTINGS_URL, input),
    onSuccess: (data) => queryClient.setQueryData([WEBHOOK_SETTINGS_URL], data),
  });
}
