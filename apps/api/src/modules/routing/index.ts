// The routing module's public face: who approves a request (the workflow, its approvers, the
// auto-approval rule that applies), shared by the approval engine and the workflow simulator.
export { routingRoutes } from './routing.routes.ts';
export {
  activeDelegations,
  BUILT_IN_ROUTE_NAME,
  chooseWorkflow,
  escalationChain,
  matchAutoApproval,
  resolveApprovers,
  roleWords,
  usersForRole,
  type ResolvedApprover,
  type RouteSubject,
  type StepDef,
} from './routing.resolve.ts';
