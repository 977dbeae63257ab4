// The organizations module's public face: what the app, the jobs, the plugins and other modules use.
// Outside this folder, import the module from here; files inside it import each other directly.
export { organizationsRoutes } from './organizations.routes.ts';
export { organizationById, type Sort } from './organizations.repository.ts';
export {
  audit,
  canSee,
  invalid,
  managedOrg,
  notFound,
  reaches,
  readableOrg,
  requireGroupManager,
  visibleOrg,
} from './organizations.service.ts';
