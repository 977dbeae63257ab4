// The reports module's public face: what the app, the jobs, the plugins and other modules use.
// Outside this folder, import the module from here; files inside it import each other directly.
export { reportsRoutes } from './reports.routes.ts';
export { runReport } from './reports.run.ts';
export { nextRunAt } from './reports.schedule.ts';
export { sendScheduledReports } from './reports.scheduled.ts';
export { options } from './reports.service.ts';
