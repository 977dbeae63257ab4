// The webhooks module's public face: what the app, the jobs, the plugins and other modules use.
// Outside this folder, import the module from here; files inside it import each other directly.
export { webhooksRoutes } from './webhooks.routes.ts';
export { deliverWebhooks } from './webhooks.delivery.ts';
