// The routing module's public face: who approves a request (the workflow, its approvers, the
// auto-approval rule that applies), shared by the approval engine and the workflow simulator.
export { routingRoutes } from './routing.routes.ts';
export {
  BUILT_IN_ROUTE_NAME,
  chooseWorkflow,
  matchAutoApproval,
  roleWords,
  type ResolvedApprover,
  type RouteSubject,
  type StepDef,
} from './routing.resolve.ts';
export { activeDelegations, escalationChain, resolveApprovers, usersForRole } from './routing.approvers.ts';
