import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { WebhookDelivery } from '@outlay/contracts/webhooks';
import { apiJson } from '@/lib/api-client';
import { WEBHOOKS_URL } from './keys';

/** `POST /api/webhooks/:id/deliveries/:deliveryId/redeliver`: the message again under its webhook-id, as a new delivery; 409 while one of it is pending. */
export function redeliver({ id, deliveryId }: { id: string; deliveryId: string }) {
  return apiJson<WebhookDelivery>('POST', `${WEBHOOKS_URL}/${id}/deliveries/${deliveryId}/redeliver`);
}

export function useRedeliver() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: redeliver,
    onSuccess: (_, { id }) => queryClient.invalidateQueries({ queryKey: [`${WEBHOOKS_URL}/${id}/deliveries`] }),
  });
}
