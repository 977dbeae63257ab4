import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { WebhookCreateInput, WebhookCreated } from '@outlay/contracts/webhooks';
import { apiJson } from '@/lib/api-client';
import { WEBHOOKS_URL, invalidateWebhooks } from './keys';

/** `POST /api/webhooks`: a new webhook; its signing secret is in this answer only. */
export function createWebhook(input: WebhookCreateInput) {
  return apiJson<WebhookCreated>('POST', WEBHOOKS_URL, input);
}

export function useCreateWebhook() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createWebhook, onSuccess: () => invalidateWebhooks(queryClient) });
}
