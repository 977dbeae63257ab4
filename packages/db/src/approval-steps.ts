import type { approvalSteps } from './schema/index.ts';

type StepInsert = typeof approvalSteps.$inferInsert;

/** What a route's step says of itself (a workflow step, the built-in route, the overrun step). */
export type StepTemplate = Pick<
  StepInsert,
  'name' | 'mode' | 'approverKind' | 'approverRole' | 'approverUserId' | 'slaHours' | 'fallbackUserId' | 'balance'
>;

/**
 * A request's copy of a route step, waiting to be activated. The approval engine writes one per
 * step when a round starts, and the demo seed writes its history with the same shape (the seed
 * cannot import the API, so the one builder lives here, beside the table).
 */
export function waitingStep(
  step: StepTemplate,
  at: { requestId: string; position: number; round: number; purpose?: string | null },
): Omit<StepInsert, 'id'> {
  return {
    requestId: at.requestId,
    position: at.position,
    name: step.name,
    mode: step.mode,
    approverKind: step.approverKind,
    approverRole: step.approverRole,
    approverUserId: step.approverUserId,
    slaHours: step.slaHours,
    fallbackUserId: step.fallbackUserId,
    balance: step.balance,
    purpose: at.purpose ?? null,
    status: 'waiting',
    round: at.round,
  };
}
