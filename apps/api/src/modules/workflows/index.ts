// The workflows module's public face.
export { workflowsRoutes } from './workflows.routes.ts';
export { userById } from './workflows.repository.ts';
