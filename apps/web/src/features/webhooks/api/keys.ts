import type { QueryClient } from '@tanstack/react-query';

/** The webhooks endpoint; every query key of this feature starts with it. */
export const WEBHOOKS_URL = '/api/webhooks';
export const WEBHOOK_SETTINGS_URL = '/api/webhooks/settings';

export function invalidateWebhooks(queryClient: QueryClient) {
  return queryClient.invalidateQueries({ queryKey: [WEBHOOKS_URL] });
}
