import { queryOptions, useQuery } from '@tanstack/react-query';
import type { WebhookDeliveryList } from '@outlay/contracts/webhooks';
import { apiJson } from '@/lib/api-client';
import { WEBHOOKS_URL } from './keys';

/** `GET /api/webhooks/:id/deliveries`: the last 100 deliveries, newest first. */
export function deliveriesQuery(id: string) {
  const url = `${WEBHOOKS_URL}/${id}/deliveries`;
  return queryOptions({
    queryKey: [url],
    queryFn: ({ signal }) => apiJson<WebhookDeliveryList>('GET', url, undefined, { signal }),
    select: (data) => data.items,
  });
}

export function useDeliveries(id: string, enabled = true) {
  return useQuery({ ...deliveriesQuery(id), enabled });
}
