// The approvals module's public face: steps, decisions and reassignment of a request in flight.
export { approvalsRoutes } from './approvals.routes.ts';
export { actorOf, approvalQueue, cycleTimes } from './approvals.service.ts';
export type { Actor, RequestRow } from './approvals.engine.ts';
export { lockRequest } from './approvals.repository.ts';
export { slaStateSql } from './approvals.queries.ts';
export { applyDelegation, endDelegation } from './approvals.delegations.ts';
export { submit } from './approvals.submission.ts';
export { cancel, pay, reroute, respond } from './approvals.transitions.ts';
export { escalateStep, moveWaitingItemsOf, remindStep } from './approvals.reassignment.ts';
