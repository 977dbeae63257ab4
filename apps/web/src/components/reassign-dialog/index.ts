/**
 * Reassigning an approver of a step in flight, shared by /approvals-management (from a step)
 * and /requests-management (from a pending request):
 *
 *   <ReassignDialog item={inFlightItem} onClose={…} />
 *   <ReassignRequestDialog request={{ id, reference }} onClose={…} />
 */
export { ReassignDialog, ReassignRequestDialog, type ReassignTarget } from './reassign-dialog';
export { reassign, useReassign, useInFlightOfRequest, inFlightOfRequestQueryOptions } from './api';
