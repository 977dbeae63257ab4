import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { WEBHOOKS_URL, invalidateWebhooks } from './keys';

/** `DELETE /api/webhooks/:id`: the webhook and its delivery log go. */
export async function deleteWebhook(id: string) {
  await apiRequest('DELETE', `${WEBHOOKS_URL}/${id}`);
}

export function useDeleteWebhook() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteWebhook, onSuccess: () => invalidateWebhooks(queryClient) });
}
