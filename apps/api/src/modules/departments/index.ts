// The departments module's public face: what the app, the jobs, the plugins and other modules use.
// Outside this folder, import the module from here; files inside it import each other directly.
export { departmentsRoutes } from './departments.routes.ts';
