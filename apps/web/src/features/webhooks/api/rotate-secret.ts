import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { WebhookSecretRotated } from '@outlay/contracts/webhooks';
import { apiJson } from '@/lib/api-client';
import { WEBHOOKS_URL, invalidateWebhooks } from './keys';

/** `POST /api/webhooks/:id/rotate-secret`: a new signing secret, in this answer only; the old one signs beside it for the grace period. */
export function rotateWebhookSecret(id: string) {
  return apiJson<WebhookSecretRotated>('POST', `${WEBHOOKS_URL}/${id}/rotate-secret`);
}

export function useRotateWebhookSecret() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: rotateWebhookSecret, onSuccess: () => invalidateWebhooks(queryClient) });
}
