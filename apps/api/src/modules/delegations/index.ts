// The delegations module's public face.
export { delegationsRoutes } from './delegations.routes.ts';
