// The routing half of the approval engine: which workflow, which approvers, auto-approval.
// Pure reads (`db` may be a transaction); the simulator and the engine share them.
import { and, asc, eq, gt, inArray, isNull, lte, sql } from 'drizzle-orm';
import { ESCALATION_LADDER, fullConditions, type RelativeRole, type WorkflowInput } from '@outlay/contracts';
import { compareMoney, toAmountString } from '@outlay/contracts/money';
import { serverFormat } from '@outlay/contracts/format';
import {
  approvalAssignments,
  approvalSteps,
  autoApprovalRules,
  delegations,
  departments,
  organizations,
  spendingRequests,
  users,
  workflowSteps,
  workflows,
  type Db,
  type WorkflowConditions,
} from '@outlay/db';

export interface RouteSubject {
  organizationId: string;
  departmentId: string | null;
  categoryId: string | null;
  requesterId: string;
  requesterRole: string;
  amountOrg: string;
  overBudget: boolean;
  findingsCount: number;
  /**
   * Segregation of duties: who decided another step of this request (user → that step's
   * position). They are left out of the step like the requester, also as someone's delegate.
   */
  barred?: ReadonlyMap<string, number>;
}

export interface StepDef {
  position: number;
  name: string;
  approverKind: 'relative_role' | 'user';
  approverRole: string | null;
  approverUserId: string | null;
  mode: 'any' | 'all';
  slaHours: number;
  fallbackUserId: string | null;
  balance: boolean;
}

export interface ResolvedApprover {
  userId: string;
  name: string;
  role: string;
  reason: 'workflow' | 'fallback' | 'delegation' | 'escalated';
  originalApproverId: string | null;
  delegationId: string | null;
  why: string;
}

export const BUILT_IN_ROUTE_NAME = 'Built-in finance route';

/** The route used when no workflow of the organization matches. */
export const BUILT_IN_STEPS: StepDef[] = [
  {
    position: 1,
    name: 'Finance approval',
    approverKind: 'relative_role',
    approverRole: 'subsidiary_finance_manager',
    approverUserId: null,
    mode: 'any',
    slaHours: 48,
    fallbackUserId: null,
    balance: false,
  },
];

const ROLE_WORDS: Record<string, string> = {
  manager: "the requester's manager",
  department_head: 'the head of the department',
  subsidiary_finance_manager: 'the finance manager of the organization',
  subsidiary_ceo: 'the CEO of the organization',
  subsidiary_coo: 'the COO of the organization',
  subsidiary_technical: 'the technical lead of the organization',
  subsidiary_supply_chain: 'the supply chain lead of the organization',
  accounts: 'accounts of the organization',
  cfo: 'the CFO',
  group_cfo: 'the group CFO',
  group_ceo: 'the group CEO',
  group_coo: 'the group COO',
  group_cto: 'the group CTO',
  group_supply_chain: 'the group supply chain lead',
  owner: 'the owner',
};

export function roleWords(role: string | null): string {
  return role ? (ROLE_WORDS[role] ?? role) : 'a named user';
}

interface Person {
  id: string;
  name: string;
  role: string;
  status: string;
}

const personCols = {
  id: users.id,
  name: sql<string>`${users.firstName} || ' ' || ${users.lastName}`,
  role: users.role,
  status: users.status,
};

async function peopleById(db: Db, ids: string[]): Promise<Map<string, Person>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db.select(personCols).from(users).where(inArray(users.id, unique));
  return new Map(rows.map((r) => [r.id, r]));
}

async function orgCurrency(db: Db, organizationId: string): Promise<string> {
  const [org] = await db
    .select({ currency: organizations.currency })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  return org?.currency ?? '';
}

/** Whether a workflow's conditions all hold; the words say which ones matched (or which failed). */
export function matchConditions(
  conditions: WorkflowConditions | WorkflowInput['conditions'] | null | undefined,
  subject: RouteSubject,
  currency: string,
): { matched: boolean; words: string[] } {
  const c = fullConditions(conditions);
  const words: string[] = [];
  const money = (v: string) => serverFormat.money(toAmountString(v), currency);
  if (c.minAmount !== null && c.minAmount !== undefined) {
    if (compareMoney(subject.amountOrg, c.minAmount) < 0)
      return {
        matched: false,
        words: [`the amount ${money(subject.amountOrg)} is below the minimum ${money(c.minAmount)}`],
      };
    words.push(`the amount ${money(subject.amountOrg)} is at least ${money(c.minAmount)}`);
  }
  if (c.maxAmount !== null && c.maxAmount !== undefined) {
    if (compareMoney(subject.amountOrg, c.maxAmount) > 0)
      return {
        matched: false,
        words: [`the amount ${money(subject.amountOrg)} is above the maximum ${money(c.maxAmount)}`],
      };
    words.push(`the amount ${money(subject.amountOrg)} is at most ${money(c.maxAmount)}`);
  }
  if (c.categoryIds && c.categoryIds.length > 0) {
    if (!subject.categoryId || !c.categoryIds.includes(subject.categoryId))
      return { matched: false, words: ['the category is not one of its categories'] };
    words.push('the category is one of its categories');
  }
  if (c.departmentIds && c.departmentIds.length > 0) {
    if (!subject.departmentId || !c.departmentIds.includes(subject.departmentId))
      return { matched: false, words: ['the department is not one of its departments'] };
    words.push('the department is one of its departments');
  }
  if (c.requesterRoles && c.requesterRoles.length > 0) {
    if (!c.requesterRoles.includes(subject.requesterRole as never))
      return { matched: false, words: [`the requester's role (${subject.requesterRole}) is not one of its roles`] };
    words.push(`the requester's role is ${subject.requesterRole}`);
  }
  if (c.overBudget !== null && c.overBudget !== undefined) {
    if (c.overBudget !== subject.overBudget)
      return { matched: false, words: [c.overBudget ? 'the request is within budget' : 'the request is over budget'] };
    words.push(subject.overBudget ? 'the request is over budget' : 'the request is within budget');
  }
  if (words.length === 0) words.push('it has no conditions, so it matches every request');
  return { matched: true, words };
}

function stepDefsOf(
  rows: {
    position: number;
    name: string;
    approverKind: 'relative_role' | 'user';
    approverRole?: string | null;
    approverUserId?: string | null;
    mode: 'any' | 'all';
    slaHours: number;
    fallbackUserId?: string | null;
    balance: boolean;
  }[],
): StepDef[] {
  return rows
    .map((s) => ({
      position: s.position,
      name: s.name,
      approverKind: s.approverKind,
      approverRole: s.approverRole ?? null,
      approverUserId: s.approverUserId ?? null,
      mode: s.mode,
      slaHours: s.slaHours,
      fallbackUserId: s.fallbackUserId ?? null,
      balance: s.balance,
    }))
    .sort((a, b) => a.position - b.position);
}

async function stepsOfWorkflow(db: Db, workflowId: string): Promise<StepDef[]> {
  const rows = await db
    .select()
    .from(workflowSteps)
    .where(eq(workflowSteps.workflowId, workflowId))
    .orderBy(asc(workflowSteps.position));
  return stepDefsOf(rows);
}

function builtIn(reasons: string[]) {
  reasons.push(
    `No workflow matched, so the built-in route applies: one step "Finance approval" by ${roleWords('subsidiary_finance_manager')} (any one of, 48 h)`,
  );
  return { workflowId: null, workflowName: BUILT_IN_ROUTE_NAME, steps: BUILT_IN_STEPS.map((s) => ({ ...s })), reasons };
}

/**
 * The workflow for a request: the organization's active workflows by priority, the first whose
 * conditions all hold; none → the built-in finance route. `override.workflowId` forces one
 * (re-route), `override.draft` tries an unsaved workflow instead of the saved ones.
 */
export async function chooseWorkflow(
  db: Db,
  subject: RouteSubject,
  override?: { workflowId?: string | null; draft?: WorkflowInput },
): Promise<{ workflowId: string | null; workflowName: string; steps: StepDef[]; reasons: string[] }> {
  const currency = await orgCurrency(db, subject.organizationId);
  const reasons: string[] = [];
  if (override?.draft) {
    const draft = override.draft;
    const m = matchConditions(draft.conditions, subject, currency);
    if (!m.matched) {
      reasons.push(`The workflow "${draft.name}" does not match: ${m.words.join(', ')}`);
      return builtIn(reasons);
    }
    reasons.push(`The workflow "${draft.name}" matched: ${m.words.join(', ')}`);
    return {
      workflowId: null,
      workflowName: draft.name,
      steps: stepDefsOf(draft.steps.map((s, i) => ({ ...s, position: i + 1 }))),
      reasons,
    };
  }
  if (override?.workflowId) {
    const [wf] = await db
      .select()
      .from(workflows)
      .where(and(eq(workflows.id, override.workflowId), eq(workflows.organizationId, subject.organizationId)));
    if (wf) {
      reasons.push(`The workflow "${wf.name}" was chosen by an administrator`);
      return { workflowId: wf.id, workflowName: wf.name, steps: await stepsOfWorkflow(db, wf.id), reasons };
    }
  }
  const candidates = await db
    .select()
    .from(workflows)
    .where(and(eq(workflows.organizationId, subject.organizationId), eq(workflows.active, true)))
    .orderBy(asc(workflows.priority), asc(workflows.createdAt));
  for (const wf of candidates) {
    const m = matchConditions(wf.conditions, subject, currency);
    if (!m.matched) {
      reasons.push(`"${wf.name}" (priority ${wf.priority}) did not match: ${m.words.join(', ')}`);
      continue;
    }
    const steps = await stepsOfWorkflow(db, wf.id);
    if (steps.length === 0) {
      reasons.push(`"${wf.name}" matched but has no steps, so it was skipped`);
      continue;
    }
    reasons.push(`The workflow "${wf.name}" (priority ${wf.priority}) matched: ${m.words.join(', ')}`);
    return { workflowId: wf.id, workflowName: wf.name, steps, reasons };
  }
  return builtIn(reasons);
}

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

/** The first active auto-approval rule of the organization whose set conditions all hold. */
export async function matchAutoApproval(db: Db, subject: RouteSubject): Promise<{ id: string; name: string } | null> {
  const rules = await db
    .select()
    .from(autoApprovalRules)
    .where(and(eq(autoApprovalRules.organizationId, subject.organizationId), eq(autoApprovalRules.active, true)))
    .orderBy(asc(autoApprovalRules.createdAt), asc(autoApprovalRules.name));
  for (const rule of rules) {
    if (compareMoney(subject.amountOrg, rule.maxAmount) > 0) continue;
    if (rule.categoryIds.length > 0 && (!subject.categoryId || !rule.categoryIds.includes(subject.categoryId)))
      continue;
    if (rule.requireWithinBudget && subject.overBudget) continue;
    if (rule.requireNoFindings && subject.findingsCount > 0) continue;
    return { id: rule.id, name: rule.name };
  }
  return null;
}
