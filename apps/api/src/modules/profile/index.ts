// The profile module's public face: what the app, the jobs, the plugins and other modules use.
// Outside this folder, import the module from here; files inside it import each other directly.
export { profileRoutes } from './profile.routes.ts';
export { retimeSchedules } from './profile.schedules.ts';
