import { queryOptions, useQuery } from '@tanstack/react-query';
import type { WebhookList } from '@outlay/contracts/webhooks';
import { apiJson } from '@/lib/api-client';
import { WEBHOOKS_URL } from './keys';

/** `GET /api/webhooks`: my webhooks; never their signing secrets. */
export function webhooksQuery() {
  return queryOptions({
    queryKey: [WEBHOOKS_URL],
    queryFn: ({ signal }) => apiJson<WebhookList>('GET', WEBHOOKS_URL, undefined, { signal }),
    select: (data) => data.items,
  });
}

export function useWebhooks() {
  return useQuery(webhooksQuery());
}
