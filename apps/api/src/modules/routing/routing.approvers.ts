// Who approves one step: the people a step's role, user or ladder names, less those away (their
// delegates stand in), the least loaded first. Pure reads (`db` may be a transaction).
import { and, asc, eq, gt, inArray, isNull, lte, sql } from 'drizzle-orm';
import { ESCALATION_LADDER, type RelativeRole } from '@outlay/contracts';
import { serverFormat } from '@outlay/contracts/format';
import {
  approvalAssignments,
  approvalSteps,
  delegations,
  departments,
  spendingRequests,
  users,
  type Db,
} from '@outlay/db';
import {
  peopleById,
  personCols,
  roleWords,
  type Person,
  type ResolvedApprover,
  type RouteSubject,
  type StepDef,
} from './routing.resolve.ts';

/** Where a role sits on the escalation ladder: the next levels above it. */
function ladderAbove(role: string | null): RelativeRole[] {
  const idx = role ? ESCALATION_LADDER.indexOf(role as RelativeRole) : -1;
  if (idx >= 0) return ESCALATION_LADDER.slice(idx + 1);
  switch (role) {
    case null:
      return [...ESCALATION_LADDER];
    case 'accounts':
    case 'subsidiary_coo':
    case 'subsidiary_technical':
    case 'subsidiary_supply_chain':
      return ESCALATION_LADDER.slice(ESCALATION_LADDER.indexOf('subsidiary_ceo'));
    case 'cfo':
    case 'group_coo':
    case 'group_cto':
    case 'group_supply_chain':
      return ESCALATION_LADDER.slice(ESCALATION_LADDER.indexOf('group_ceo'));
    default:
      return [];
  }
}

/** The levels tried when nobody else can approve: up the ladder from the role, then cfo, then owner. */
export function escalationChain(role: string | null): string[] {
  const chain: string[] = [...ladderAbove(role)];
  for (const r of ['cfo', 'owner']) if (!chain.includes(r) && r !== role) chain.push(r);
  return chain;
}

/** Active users holding a role, relative to the request. */
export async function usersForRole(
  db: Db,
  subject: RouteSubject,
  role: string,
  requesterManagerId?: string | null,
): Promise<{ people: Person[]; how: string }> {
  const active = eq(users.status, 'active');
  if (role === 'manager') {
    const managerId =
      requesterManagerId !== undefined
        ? requesterManagerId
        : ((await db.select({ managerId: users.managerId }).from(users).where(eq(users.id, subject.requesterId)))[0]
            ?.managerId ?? null);
    if (managerId) {
      const found = await db
        .select(personCols)
        .from(users)
        .where(and(eq(users.id, managerId), active));
      if (found.length > 0) return { people: found, how: "the requester's manager" };
    }
    if (!subject.departmentId) return { people: [], how: 'a manager of the department' };
    const rows = await db
      .select(personCols)
      .from(users)
      .where(and(eq(users.role, 'manager'), eq(users.departmentId, subject.departmentId), active))
      .orderBy(asc(users.lastName), asc(users.firstName));
    return { people: rows, how: 'a manager of the department' };
  }
  if (role === 'department_head') {
    if (!subject.departmentId) return { people: [], how: 'the head of the department' };
    const [dept] = await db
      .select({ headUserId: departments.headUserId })
      .from(departments)
      .where(eq(departments.id, subject.departmentId));
    if (dept?.headUserId) {
      const found = await db
        .select(personCols)
        .from(users)
        .where(and(eq(users.id, dept.headUserId), active));
      if (found.length > 0) return { people: found, how: 'the head of the department' };
    }
    const rows = await db
      .select(personCols)
      .from(users)
      .where(and(eq(users.role, 'department_head'), eq(users.departmentId, subject.departmentId), active))
      .orderBy(asc(users.lastName), asc(users.firstName));
    return { people: rows, how: 'a department head of the department' };
  }
  if (role.startsWith('subsidiary_') || role === 'accounts') {
    const rows = await db
      .select(personCols)
      .from(users)
      .where(and(eq(users.role, role), eq(users.organizationId, subject.organizationId), active))
      .orderBy(asc(users.lastName), asc(users.firstName));
    return { people: rows, how: roleWords(role) };
  }
  const rows = await db
    .select(personCols)
    .from(users)
    .where(and(eq(users.role, role), active))
    .orderBy(asc(users.lastName), asc(users.firstName));
  return { people: rows, how: roleWords(role) };
}

/** The first level of the chain above `role` where someone other than the requester is active. */
export async function ladderApprovers(
  db: Db,
  subject: RouteSubject,
  role: string | null,
): Promise<{ people: Person[]; level: string } | null> {
  for (const level of escalationChain(role)) {
    const { people } = await usersForRole(db, subject, level);
    const eligible = people.filter((p) => p.id !== subject.requesterId && !subject.barred?.has(p.id));
    if (eligible.length > 0) return { people: eligible, level };
  }
  return null;
}

export interface ActiveDelegation {
  id: string;
  delegatorId: string;
  delegateId: string;
}

/** Delegations in force at `now` (not revoked) for these delegators. */
export async function activeDelegations(
  db: Db,
  delegatorIds: string[],
  now: Date,
): Promise<Map<string, ActiveDelegation>> {
  if (delegatorIds.length === 0) return new Map();
  const rows = await db
    .select({ id: delegations.id, delegatorId: delegations.delegatorId, delegateId: delegations.delegateId })
    .from(delegations)
    .innerJoin(users, eq(users.id, delegations.delegateId))
    .where(
      and(
        inArray(delegations.delegatorId, delegatorIds),
        lte(delegations.startsAt, now),
        gt(delegations.endsAt, now),
        isNull(delegations.revokedAt),
        eq(users.status, 'active'),
      ),
    )
    .orderBy(asc(delegations.startsAt));
  const map = new Map<string, ActiveDelegation>();
  for (const r of rows) if (!map.has(r.delegatorId)) map.set(r.delegatorId, r);
  return map;
}

/** Open assignments on active steps of pending requests, per person (for balancing). */
async function openLoad(db: Db, userIds: string[]): Promise<Map<string, number>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .select({ approverId: approvalAssignments.approverId, n: sql<number>`count(*)::int` })
    .from(approvalAssignments)
    .innerJoin(approvalSteps, eq(approvalSteps.id, approvalAssignments.stepId))
    .innerJoin(spendingRequests, eq(spendingRequests.id, approvalAssignments.requestId))
    .where(
      and(
        inArray(approvalAssignments.approverId, userIds),
        eq(approvalAssignments.status, 'open'),
        eq(approvalSteps.status, 'active'),
        eq(spendingRequests.status, 'pending'),
      ),
    )
    .groupBy(approvalAssignments.approverId);
  return new Map(rows.map((r) => [r.approverId, Number(r.n)]));
}

/**
 * Who approves a step now: the step's user or role relative to the request (active users only),
 * minus the requester; nobody → the step's fallback, then the escalation ladder, cfo, owner.
 * Delegations in force replace an approver with the delegate; each person once; balancing
 * keeps only the candidate with the fewest open items.
 */
export async function resolveApprovers(
  db: Db,
  subject: RouteSubject,
  step: StepDef,
  now: Date,
): Promise<{ approvers: ResolvedApprover[]; warnings: string[] }> {
  const warnings: string[] = [];
  const barred = subject.barred ?? new Map<string, number>();
  /** `standsInFor`: the approver this fallback replaces because they are barred (kept as "originally X"). */
  let base: { person: Person; reason: ResolvedApprover['reason']; why: string; standsInFor?: string }[] = [];

  if (step.approverKind === 'user') {
    if (step.approverUserId) {
      const p = (await peopleById(db, [step.approverUserId])).get(step.approverUserId);
      if (!p) warnings.push('The named approver no longer exists');
      else if (p.status !== 'active') warnings.push(`${p.name}, the named approver, is not active`);
      else base.push({ person: p, reason: 'workflow', why: `${p.name} is the step's named approver` });
    } else warnings.push('The step names no approver');
  } else if (step.approverRole) {
    const { people, how } = await usersForRole(db, subject, step.approverRole);
    if (people.length === 0) warnings.push(`Nobody active is ${roleWords(step.approverRole)} for this request`);
    base = people.map((p) => ({ person: p, reason: 'workflow' as const, why: `${p.name} is ${how}` }));
  }

  const requesterAmong = base.find((b) => b.person.id === subject.requesterId);
  if (requesterAmong) {
    warnings.push(`${requesterAmong.person.name} is the requester and cannot approve their own request`);
    base = base.filter((b) => b.person.id !== subject.requesterId);
  }
  const barredOut = base.filter((b) => barred.has(b.person.id));
  for (const b of barredOut)
    warnings.push(
      `${b.person.name} decided step ${barred.get(b.person.id)} of this request, so another approver decides this step`,
    );
  base = base.filter((b) => !barred.has(b.person.id));
  const standsInFor = barredOut[0]?.person.id;

  if (base.length === 0 && step.fallbackUserId) {
    const p = (await peopleById(db, [step.fallbackUserId])).get(step.fallbackUserId);
    if (p && p.status === 'active' && p.id !== subject.requesterId && !barred.has(p.id)) {
      base.push({
        person: p,
        reason: 'fallback',
        why: `${p.name} is the step's fallback approver (nobody else could approve)`,
        standsInFor,
      });
      warnings.push(`The step's fallback approver ${p.name} takes it`);
    } else if (p) warnings.push(`The fallback approver ${p.name} cannot take it`);
  }
  if (base.length === 0) {
    const ladder = await ladderApprovers(db, subject, step.approverKind === 'relative_role' ? step.approverRole : null);
    if (ladder) {
      for (const p of ladder.people)
        base.push({
          person: p,
          reason: 'fallback',
          why: `${p.name} is ${roleWords(ladder.level)}, next up the escalation ladder (nobody else could approve)`,
          standsInFor,
        });
      warnings.push(`Nobody else could approve, so it goes up the escalation ladder to ${roleWords(ladder.level)}`);
    } else warnings.push('Nobody at all can approve this step');
  }

  // Delegations in force at `now`.
  const deleg = await activeDelegations(
    db,
    base.map((b) => b.person.id),
    now,
  );
  const delegateIds = [...deleg.values()].map((d) => d.delegateId);
  const delegates = await peopleById(db, delegateIds);
  const resolved: ResolvedApprover[] = [];
  const seen = new Set<string>();
  // Delegators who keep the step because their delegate is barred: they are away, so someone
  // present is added below when nobody else can decide.
  const keptAway: Person[] = [];
  for (const b of base) {
    const d = deleg.get(b.person.id);
    const delegate = d ? delegates.get(d.delegateId) : undefined;
    let r: ResolvedApprover;
    if (d && delegate && delegate.id !== subject.requesterId && !barred.has(delegate.id)) {
      r = {
        userId: delegate.id,
        name: delegate.name,
        role: delegate.role,
        reason: 'delegation',
        originalApproverId: b.person.id,
        delegationId: d.id,
        why: `${delegate.name} approves on behalf of ${b.person.name} (out of office; ${b.why})`,
      };
    } else {
      if (d && delegate && barred.has(delegate.id)) {
        warnings.push(
          `${b.person.name}'s delegate ${delegate.name} decided step ${barred.get(delegate.id)} of this request, so ${b.person.name} keeps the item`,
        );
        keptAway.push(b.person);
      } else if (d && delegate)
        warnings.push(`${b.person.name}'s delegate is the requester, so ${b.person.name} keeps the item`);
      r = {
        userId: b.person.id,
        name: b.person.name,
        role: b.person.role,
        reason: b.reason,
        originalApproverId: b.standsInFor ?? null,
        delegationId: null,
        why: b.why,
      };
    }
    if (seen.has(r.userId)) continue;
    seen.add(r.userId);
    resolved.push(r);
  }

  // An all-of step still needs each approver's own decision, so only an any-of step whose
  // approvers are all away gets stand-ins: the step's fallback, else the next level up.
  const standIns: ResolvedApprover[] = [];
  if (step.mode === 'any' && keptAway.length > 0 && resolved.every((r) => keptAway.some((k) => k.id === r.userId))) {
    const away = keptAway[0]!;
    const fb = step.fallbackUserId ? (await peopleById(db, [step.fallbackUserId])).get(step.fallbackUserId) : undefined;
    const fallbackOk =
      fb && fb.status === 'active' && fb.id !== subject.requesterId && !barred.has(fb.id) && !seen.has(fb.id);
    const ladder = fallbackOk
      ? null
      : await ladderApprovers(db, subject, step.approverKind === 'relative_role' ? step.approverRole : null);
    const people = fallbackOk ? [fb] : (ladder?.people ?? []).filter((p) => !seen.has(p.id));
    const how = fallbackOk
      ? "the step's fallback approver"
      : ladder
        ? `${roleWords(ladder.level)}, next up the escalation ladder`
        : '';
    for (const p of people) {
      seen.add(p.id);
      standIns.push({
        userId: p.id,
        name: p.name,
        role: p.role,
        reason: 'fallback',
        originalApproverId: away.id,
        delegationId: null,
        why: `${p.name} is ${how} (${away.name} is away)`,
      });
    }
    if (standIns.length === 0) warnings.push(`Nobody else can decide this step while ${away.name} is away`);
    resolved.push(...standIns);
  }

  if (step.balance && step.mode === 'any' && resolved.length > 1 && standIns.length === 0) {
    const load = await openLoad(
      db,
      resolved.map((r) => r.userId),
    );
    let best = resolved[0]!;
    for (const r of resolved) if ((load.get(r.userId) ?? 0) < (load.get(best.userId) ?? 0)) best = r;
    const n = load.get(best.userId) ?? 0;
    best = { ...best, why: `${best.why}; balanced: the shortest queue (${serverFormat.plural(n, 'open item')})` };
    return { approvers: [best], warnings };
  }
  return { approvers: resolved, warnings };
}
