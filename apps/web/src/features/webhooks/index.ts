/*
 * The webhooks feature's public face: what other features and the app shell use of it. Its pages are
 * reached through the route catalogue, never from here.
 */
export { useCreateWebhook } from './api/create-webhook';
export { useDeleteWebhook } from './api/delete-webhook';
export { useDestinationSettings, useUpdateDestinationSettings } from './api/destination-settings';
export { useDeliveries } from './api/list-deliveries';
export { useWebhooks } from './api/list-webhooks';
export { useRedeliver } from './api/redeliver';
export { useRotateWebhookSecret } from './api/rotate-secret';
export { useSetWebhookEnabled } from './api/update-webhook';
