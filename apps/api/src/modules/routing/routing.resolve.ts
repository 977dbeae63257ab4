// The routing half of the approval engine: which workflow, which approvers, auto-approval.
// Pure reads (`db` may be a transaction); the simulator and the engine share them.
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { fullConditions, type WorkflowInput } from '@outlay/contracts';
import { compareMoney, toAmountString } from '@outlay/contracts/money';
import { serverFormat } from '@outlay/contracts/format';
import {
  autoApprovalRules,
  organizations,
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

export interface Person {
  id: string;
  name: string;
  role: string;
  status: string;
}

export const personCols = {
  id: users.id,
  name: sql<string>`${users.firstName} || ' ' || ${users.lastName}`,
  role: users.role,
  status: users.status,
};

export async function peopleById(db: Db, ids: string[]): Promise<Map<string, Person>> {
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
