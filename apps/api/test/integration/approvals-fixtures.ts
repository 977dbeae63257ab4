// Shared set-up for the approvals-*.test.ts files: a workflow of our own for Meridian
// Logistics (manager → department head), requests raised through the API.
import { and, eq, isNull, or, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import {
  approvalAssignments,
  approvalSteps,
  auditEvents,
  autoApprovalRules,
  categories,
  notifications,
  organizations,
  spendingRequests,
  users,
  workflowSteps,
  workflows,
} from '@outlay/db';
import type { Session, TestContext } from '../helpers.ts';

/** A category no per-request policy rule limits (any amount goes through without a limit finding). */
export const withoutLimitRule = sql`NOT EXISTS (SELECT 1 FROM policy_rules r WHERE r.kind = 'category_limit_request' AND r.params->>'categoryId' = ${categories.id}::text)`;

export interface World {
  org: Record<string, string>;
  user: Record<string, string>;
  categoryId: string;
  workflowId: string;
}

export async function setUpWorld(t: TestContext): Promise<World> {
  const org: Record<string, string> = {};
  for (const o of await t.db.select().from(organizations)) org[o.code] = o.id;
  const user: Record<string, string> = {};
  for (const u of await t.db.select({ id: users.id, username: users.username }).from(users)) user[u.username] = u.id;
  const [cat] = await t.db
    .select()
    .from(categories)
    .where(
      and(
        or(eq(categories.organizationId, org.ML!), isNull(categories.organizationId)),
        eq(categories.active, true),
        withoutLimitRule,
      ),
    )
    .limit(1);
  const category =
    cat ??
    (
      await t.db
        .select()
        .from(categories)
        .where(or(eq(categories.organizationId, org.ML!), isNull(categories.organizationId)))
        .limit(1)
    )[0]!;
  // Only our workflow and no auto-approval rule route Meridian Logistics in these tests.
  await t.db.update(workflows).set({ active: false }).where(eq(workflows.organizationId, org.ML!));
  await t.db.update(autoApprovalRules).set({ active: false }).where(eq(autoApprovalRules.organizationId, org.ML!));
  const workflowId = await addWorkflow(t, org.ML!, 'Test: manager then head', [
    { name: 'Manager approval', approverKind: 'relative_role', approverRole: 'manager' },
    { name: 'Department head approval', approverKind: 'relative_role', approverRole: 'department_head' },
  ]);
  return { org, user, categoryId: category.id, workflowId };
}

export interface StepSpec {
  name: string;
  approverKind: 'relative_role' | 'user';
  approverRole?: string | null;
  approverUserId?: string | null;
  mode?: 'any' | 'all';
  slaHours?: number;
  fallbackUserId?: string | null;
  balance?: boolean;
}

export async function addWorkflow(
  t: TestContext,
  organizationId: string,
  name: string,
  steps: StepSpec[],
  priority = 0,
  conditions = {},
): Promise<string> {
  const [wf] = await t.db.insert(workflows).values({ organizationId, name, priority, conditions }).returning();
  await t.db.insert(workflowSteps).values(
    steps.map((s, i) => ({
      workflowId: wf!.id,
      position: i + 1,
      name: s.name,
      approverKind: s.approverKind,
      approverRole: s.approverRole ?? null,
      approverUserId: s.approverUserId ?? null,
      mode: s.mode ?? 'any',
      slaHours: s.slaHours ?? 48,
      fallbackUserId: s.fallbackUserId ?? null,
      balance: s.balance ?? false,
    })),
  );
  return wf!.id;
}

/** Only this workflow routes the organization from now on. */
export async function onlyWorkflow(t: TestContext, organizationId: string, workflowId: string) {
  await t.db
    .update(workflows)
    .set({ active: sql`${workflows.id} = ${workflowId}` })
    .where(eq(workflows.organizationId, organizationId));
}

export async function createDraft(
  t: TestContext,
  s: Session,
  w: World,
  over: Record<string, unknown> = {},
): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/requests',
    headers: s.headers,
    payload: {
      title: 'Pallet wrap for the depot',
      amount: '120.00',
      currency: 'USD',
      categoryId: w.categoryId,
      ...over,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

export async function submit(t: TestContext, s: Session, id: string, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'POST', url: `/api/requests/${id}/submit`, headers: { ...s.headers, ...headers } });
}

export async function decide(t: TestContext, s: Session, id: string, body: Record<string, unknown>) {
  return t.app.inject({ method: 'POST', url: `/api/approvals/${id}/decide`, headers: s.headers, payload: body });
}

export async function requestRow(t: TestContext, id: string) {
  const [r] = await t.db.select().from(spendingRequests).where(eq(spendingRequests.id, id));
  return r!;
}

export async function stepsOf(t: TestContext, id: string) {
  return t.db
    .select()
    .from(approvalSteps)
    .where(eq(approvalSteps.requestId, id))
    .orderBy(approvalSteps.round, approvalSteps.position);
}

export async function assignmentsOf(t: TestContext, id: string) {
  return t.db
    .select()
    .from(approvalAssignments)
    .where(eq(approvalAssignments.requestId, id))
    .orderBy(approvalAssignments.createdAt);
}

/** Open approvers (user ids) of the request's active step. */
export async function openApprovers(t: TestContext, id: string): Promise<string[]> {
  const rows = await t.db
    .select({ approverId: approvalAssignments.approverId })
    .from(approvalAssignments)
    .innerJoin(approvalSteps, eq(approvalSteps.id, approvalAssignments.stepId))
    .where(
      and(
        eq(approvalAssignments.requestId, id),
        eq(approvalAssignments.status, 'open'),
        eq(approvalSteps.status, 'active'),
      ),
    );
  return rows.map((r) => r.approverId).sort();
}

export async function auditCount(t: TestContext, id: string, action: string): Promise<number> {
  const rows = await t.db
    .select({ n: sql<number>`count(*)::int` })
    .from(auditEvents)
    .where(and(eq(auditEvents.entityId, id), eq(auditEvents.action, action)));
  return Number(rows[0]?.n ?? 0);
}

export async function notificationsFor(t: TestContext, userId: string, requestId: string) {
  return t.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.entityId, requestId)));
}
