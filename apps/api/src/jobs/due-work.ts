// Time-driven work of the approval engine: reminders at half the SLA, escalation at the due
// time, delegations starting and ending, recurring requests coming due. Each unit of work runs in its own transaction and
// takes its rows with FOR UPDATE SKIP LOCKED, so two instances never do the same work; the
// null checks (remindedAt, escalatedAt, appliedAt, endedAt) make each happen once.
import { and, eq, gt, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import { approvalSteps, delegations, jobRuns, spendingRequests, type Db } from '@outlay/db';
import type { AppDeps } from '../lib/context.ts';
import { raiseRecurring } from './recurring.ts';
import { applyDelegation, endDelegation, escalateStep, remindStep, type Actor } from '../modules/approvals/index.ts';

export interface DueWorkResult {
  reminded: number;
  escalated: number;
  delegationsStarted: number;
  delegationsEnded: number;
  recurringRaised: number;
}

const at = (now: Date) => sql`${now.toISOString()}::timestamptz`;

type StepKind = 'remind' | 'escalate';

function dueCondition(kind: StepKind, now: Date) {
  return kind === 'remind'
    ? and(
        isNull(approvalSteps.remindedAt),
        sql`${approvalSteps.activatedAt} + ${approvalSteps.slaHours} * interval '30 minutes' <= ${at(now)}`,
      )
    : and(isNull(approvalSteps.escalatedAt), lte(approvalSteps.dueAt, now));
}

/** One step's reminder or escalation, in its own transaction; false when someone else has it. */
async function stepUnit(db: Db, kind: StepKind, stepId: string, requestId: string, actor: Actor): Promise<boolean> {
  return db.transaction(async (raw) => {
    const tx = raw as unknown as Db;
    // Request first, then step: the same order as a decision, so the two never deadlock.
    const [r] = await tx
      .select()
      .from(spendingRequests)
      .where(and(eq(spendingRequests.id, requestId), eq(spendingRequests.status, 'pending')))
      .for('update', { skipLocked: true });
    if (!r) return false;
    const [step] = await tx
      .select()
      .from(approvalSteps)
      .where(and(eq(approvalSteps.id, stepId), eq(approvalSteps.status, 'active'), dueCondition(kind, actor.now)))
      .for('update', { skipLocked: true });
    if (!step) return false;
    if (kind === 'remind') await remindStep(tx, r, step, actor);
    else await escalateStep(tx, r, step, actor);
    return true;
  });
}

async function dueSteps(db: Db, kind: StepKind, now: Date) {
  return db
    .select({ stepId: approvalSteps.id, requestId: approvalSteps.requestId })
    .from(approvalSteps)
    .innerJoin(spendingRequests, eq(spendingRequests.id, approvalSteps.requestId))
    .where(and(eq(approvalSteps.status, 'active'), eq(spendingRequests.status, 'pending'), dueCondition(kind, now)))
    .limit(500);
}

const startCondition = (now: Date) =>
  and(
    lte(delegations.startsAt, now),
    gt(delegations.endsAt, now),
    isNull(delegations.appliedAt),
    isNull(delegations.revokedAt),
  );
const endCondition = (now: Date) =>
  and(
    isNull(delegations.endedAt),
    or(lte(delegations.endsAt, now), and(isNotNull(delegations.revokedAt), isNotNull(delegations.appliedAt))),
  );

async function delegationUnit(db: Db, kind: 'start' | 'end', id: string, actor: Actor): Promise<boolean> {
  return db.transaction(async (raw) => {
    const tx = raw as unknown as Db;
    const [d] = await tx
      .select()
      .from(delegations)
      .where(and(eq(delegations.id, id), kind === 'start' ? startCondition(actor.now) : endCondition(actor.now)))
      .for('update', { skipLocked: true });
    if (!d) return false;
    if (kind === 'start') {
      await applyDelegation(tx, d, actor);
      await tx.update(delegations).set({ appliedAt: actor.now }).where(eq(delegations.id, d.id));
    } else {
      if (d.appliedAt) await endDelegation(tx, d, actor);
      await tx.update(delegations).set({ endedAt: actor.now }).where(eq(delegations.id, d.id));
    }
    return true;
  });
}

/** Does whatever is due at `now`. Safe to run concurrently and repeatedly. */
export async function runDueWork(deps: Pick<AppDeps, 'db'>, now: Date): Promise<DueWorkResult> {
  const db = deps.db;
  const actor: Actor = { userId: null, now, ip: null, userAgent: null };
  const result: DueWorkResult = {
    reminded: 0,
    escalated: 0,
    delegationsStarted: 0,
    delegationsEnded: 0,
    recurringRaised: 0,
  };

  // Delegations first, so reminders and escalations reach whoever holds the item now.
  const ending = await db.select({ id: delegations.id }).from(delegations).where(endCondition(now)).limit(500);
  for (const d of ending) if (await delegationUnit(db, 'end', d.id, actor)) result.delegationsEnded++;
  const starting = await db.select({ id: delegations.id }).from(delegations).where(startCondition(now)).limit(500);
  for (const d of starting) if (await delegationUnit(db, 'start', d.id, actor)) result.delegationsStarted++;

  for (const s of await dueSteps(db, 'remind', now))
    if (await stepUnit(db, 'remind', s.stepId, s.requestId, actor)) result.reminded++;
  for (const s of await dueSteps(db, 'escalate', now))
    if (await stepUnit(db, 'escalate', s.stepId, s.requestId, actor)) result.escalated++;

  result.recurringRaised = await raiseRecurring(db, actor);

  await db
    .insert(jobRuns)
    .values({ name: 'due-work', lastRunAt: now, lastResult: result })
    .onConflictDoUpdate({ target: jobRuns.name, set: { lastRunAt: now, lastResult: result } });
  return result;
}
