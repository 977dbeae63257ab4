import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Webhook } from '@outlay/contracts/webhooks';
import { apiJson } from '@/lib/api-client';
import { WEBHOOKS_URL, invalidateWebhooks } from './keys';

/** `PATCH /api/webhooks/:id`: switch a webhook on or off. */
export function setWebhookEnabled({ id, enabled }: { id: string; enabled: boolean }) {
  return apiJson<Webhook>('PATCH', `${WEBHOOKS_URL}/${id}`, { enabled });
}

export function useSetWebhookEnabled() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: setWebhookEnabled, onSuccess: () => invalidateWebhooks(queryClient) });
}
