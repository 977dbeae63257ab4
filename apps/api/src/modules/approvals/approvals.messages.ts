// Every sentence the approval engine writes for people: refusals, notification titles and
// bodies, route reasons and timeline notes. Kept together so the wording reads as one voice and
// changes in one place; the engine files hold only the rules. Amounts are written with the
// shared formatters (contracts/format.ts) in the server's locale, en-US: no recipient locale is stored.
import { serverFormat as fmt } from '@outlay/contracts/format';

/** Refusals of a decision, also shown by the queue (why an item cannot be decided). */
export const MESSAGES = {
  alreadyDecided: 'This approval has already been decided',
  ownRequest: 'You cannot approve your own request',
  notApprover: "You are not an approver at this request's current step",
  rejectInstead: 'Reject the request instead',
  overrunNote: 'A note is required to decide a budget overrun',
  unknownLineItem: 'A rejected line item does not belong to this request',
  unknownLineItemField: 'Unknown line item',
  foreignWorkflow: "The workflow is not one of this request's organization",
  unknownWorkflowField: 'Unknown workflow',
  userNotFound: 'User not found',
  notReroutable: (statusLabel: string) =>
    `This request is ${statusLabel.toLowerCase()} and cannot be re-routed; only pending requests can`,
  noOpenItem: (name: string) => `${name} has no open item at this step`,
  inactiveTarget: (name: string) => `${name} is not active and cannot take over approvals`,
  requesterTarget: (name: string) => `${name} is the requester and cannot approve their own request`,
  decidedOtherStep: (name: string, step: number) =>
    `${name} decided step ${step} of this request; another approver must decide this step`,
  alreadyApprover: (name: string) => `${name} is already an approver at this step`,
  overrunNotFound: 'Budget overrun not found',
  notWaitingForOverrun: 'This request is not waiting for a budget overrun decision',
  raiseOnlyWhenApproved: 'Only an approved overrun can raise the budget line',
} as const;

/** How an approver's "needs your approval" notification begins, by why the item reached them. */
export const APPROVER_INTRO = {
  needed: 'needs your approval',
  reminder: 'is waiting for your approval (half of the SLA has passed)',
  escalated: 'was escalated to you',
  delegated: 'needs your approval (delegated to you)',
  moved: 'needs your approval (moved to you)',
  approverLeft: 'needs your approval (its approver left)',
  standIn: (delegatorName: string) => `needs your approval (${delegatorName} is away)`,
} as const;

export const approvalNeededBody = (
  r: { title: string; amount: string; currency: string },
  step: { position: number; name: string },
) => `${r.title} (${fmt.money(r.amount, r.currency)}), step ${step.position} "${step.name}"`;

/** What the requester is told (the title follows the request reference). */
export const REQUESTER = {
  overBudget: {
    title: 'is over budget',
    body: 'The CFO or group CFO must approve the overrun before the normal route',
  },
  autoApproved: (ruleName: string) => ({ title: 'was approved automatically', body: `Rule "${ruleName}"` }),
  stepPassed: (step: { position: number; name: string }, nextApprovers: string[]) => ({
    title: `passed step ${step.position} "${step.name}"`,
    body: nextApprovers.length ? `Now with ${nextApprovers.join(', ')}` : null,
  }),
  approved: (approvedAmount: string, amount: string, currency: string) => ({
    title: 'was approved',
    body: approvedAmount !== amount ? `Approved amount ${fmt.money(approvedAmount, currency)}` : null,
  }),
  rejected: 'was rejected',
  infoRequested: 'needs more information',
  rerouted: (workflowName: string) => ({ title: 'was re-routed', body: `Now on "${workflowName}"` }),
} as const;

/** What approvers whose item went away are told. */
export const APPROVERS = {
  cancelled: 'was cancelled',
  escalated: { title: 'was escalated', body: (stepName: string) => `Past its SLA at step "${stepName}"` },
} as const;

/** The route reason lines and timeline notes. */
export const ACTIVITY = {
  autoApproved: (ruleName: string, amountOrg: string | null, currency: string) =>
    `Approved automatically by the rule "${ruleName}": the amount ${amountOrg === null ? 'unknown' : fmt.money(amountOrg, currency)} is within its limit and its conditions hold`,
  autoApprovedNote: (ruleName: string) => `Rule "${ruleName}"`,
  overBudget: (lines: { label: string; over: string; amount: string; currency: string }[]) =>
    `Over budget: ${lines.map((l) => `${l.label} would go ${fmt.money(l.over, l.currency)} over its ${fmt.money(l.amount, l.currency)}`).join('; ')}, so a "Budget overrun" step for the CFO or group CFO comes first`,
  firstStep: (step: { name: string; mode: string }, whys: string[]) =>
    whys.length > 0
      ? `Step 1 "${step.name}" (${step.mode === 'all' ? 'all of' : 'any one of'}): ${whys.join('; ')}`
      : `Step 1 "${step.name}": nobody could be found to approve it`,
  firstStepWarning: (warning: string) => `Step 1: ${warning}`,
  laterStep: (step: { position: number; name: string }, roleWords: string) =>
    `Step ${step.position} "${step.name}": ${roleWords}, resolved when the step becomes active`,
  nobodyToEscalateTo: 'Nobody above to escalate to',
  escalatedTo: (names: string[], why: string) => `Escalated to ${names.join(', ')} (${why})`,
  reassigned: (fromName: string, toName: string) => `Reassigned from ${fromName} to ${toName}`,
  approverDeactivated: (names: string[], why: string | undefined) =>
    names.length
      ? `Approver deactivated; moved to ${names.join(', ')} (${why})`
      : 'Approver deactivated; nobody else could take the item',
  delegatedTo: (name: string) => `Delegated to ${name}`,
  delegatorKeeps: (
    delegateName: string,
    decidedStep: number,
    delegatorName: string,
    names: string[],
    why: string | undefined,
  ) =>
    `${delegateName} decided step ${decidedStep} of this request, so ${delegatorName} keeps this step${names.length ? `; ${names.join(', ')} (${why}) can decide it too` : ''}`,
  delegationEnded: 'Delegation ended; the item went back',
} as const;
