// The notifications module's public face: what the app, the jobs, the plugins and other modules use.
// Outside this folder, import the module from here; files inside it import each other directly.
export { notificationsRoutes } from './notifications.routes.ts';
export { notifyNewDeviceSignIn, notifyPayrollToApprove, notifyRegistrationReceived } from './notifications.events.ts';
export { nextDigestAt } from './notifications.schedule.ts';
