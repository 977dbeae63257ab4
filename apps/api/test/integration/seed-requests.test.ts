import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { REQUEST_STATUS_VALUES } from '@outlay/contracts';
import { spendingRequests } from '@outlay/db';
import { verifyAuditChain } from '../../src/lib/audit.ts';
import { rowsOf } from '../../src/lib/sql.ts';
import { createTestApp, login, type TestContext } from '../helpers.ts';

// The demo seed's request history (packages/db/src/seed/demo-requests.ts): the test database
// is a copy of the seeded template, so these checks read what `npm start` would show.
let t: TestContext;

async function q<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  return rowsOf<T>(await t.db.execute(query));
}

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('demo request history', () => {
  it('has every status, in every organization, over 13 months', async () => {
    const statuses = await q<{ status: string }>(sql`SELECT DISTINCT status FROM spending_requests`);
    expect(statuses.map((s) => s.status).sort()).toEqual([...REQUEST_STATUS_VALUES].sort());
    const perOrg = await q<{ code: string; statuses: string[]; months: number }>(sql`
      SELECT o.code, array_agg(DISTINCT r.status::text ORDER BY r.status::text) AS statuses,
        count(DISTINCT to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM'))::int AS months
      FROM organizations o LEFT JOIN spending_requests r ON r.organization_id = o.id GROUP BY o.code ORDER BY o.code`);
    // The group and all four subsidiaries (Foods and Tech through their staff, not the demo accounts).
    expect(perOrg.map((r) => r.code)).toEqual(['ME', 'MF', 'MG', 'ML', 'MT']);
    for (const o of perOrg) {
      expect(o.statuses, o.code).toEqual([...REQUEST_STATUS_VALUES].sort());
      expect(o.months, o.code).toBe(13);
    }
    // Each organization's requests are raised by its own people.
    const [foreign] = await q<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM spending_requests r JOIN users u ON u.id = r.requester_id WHERE u.organization_id <> r.organization_id`);
    expect(foreign?.n).toBe(0);
    const months = await q<{ m: string; n: number }>(
      sql`SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM') AS m, count(*)::int AS n FROM spending_requests GROUP BY 1 ORDER BY 1`,
    );
    expect(months).toHaveLength(13);
    for (const m of months.slice(0, -1)) expect(m.n).toBeGreaterThanOrEqual(25);
    const [future] = await q<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM spending_requests WHERE created_at > now() OR submitted_at > now() OR decided_at > now() OR paid_at > now()`,
    );
    expect(future?.n).toBe(0);
  });

  it('gives every organization workflows, with the Logistics chain and one auto-approval rule', async () => {
    const orgs = await q<{ code: string; n: number }>(sql`
      SELECT o.code, count(w.id)::int AS n FROM organizations o LEFT JOIN workflows w ON w.organization_id = o.id GROUP BY o.code`);
    expect(orgs).toHaveLength(5);
    for (const o of orgs) expect(o.n, o.code).toBeGreaterThanOrEqual(1);
    const chain = await q<{
      name: string;
      position: number;
      approver_role: string;
      sla_hours: number;
      mode: string;
    }>(sql`
      SELECT s.name, s.position, s.approver_role, s.sla_hours, s.mode FROM workflows w
      JOIN organizations o ON o.id = w.organization_id JOIN workflow_steps s ON s.workflow_id = w.id
      WHERE o.code = 'ML' AND w.name = 'Standard approval' ORDER BY s.position`);
    expect(chain).toEqual([
      { name: 'Line manager', position: 1, approver_role: 'manager', sla_hours: 24, mode: 'any' },
      { name: 'Department head', position: 2, approver_role: 'department_head', sla_hours: 48, mode: 'any' },
    ]);
    const rules = await q<{ name: string; max_amount: string }>(sql`SELECT name, max_amount FROM auto_approval_rules`);
    expect(rules).toEqual([{ name: 'Small office supplies', max_amount: '100.00' }]);
    // rita's ordinary requests went max → dana, as the engine routes them.
    const rita = await q<{ approvers: string }>(sql`
      SELECT string_agg(u.username, '>' ORDER BY s.position) AS approvers FROM spending_requests r
      JOIN users req ON req.id = r.requester_id AND req.username = 'rita'
      JOIN approval_steps s ON s.request_id = r.id
      JOIN approval_assignments a ON a.step_id = s.id AND a.reason = 'workflow'
      JOIN users u ON u.id = a.approver_id
      WHERE r.workflow_name = 'Standard approval' AND r.status IN ('approved', 'paid') GROUP BY r.id`);
    expect(rita.length).toBeGreaterThan(5);
    expect(new Set(rita.map((r) => r.approvers))).toEqual(new Set(['max>dana']));
  });

  it('words amounts in the workflows and route reasons as money, with the currency', async () => {
    const rows = await q<{ code: string; description: string }>(sql`
      SELECT o.code, w.description FROM workflows w JOIN organizations o ON o.id = w.organization_id WHERE w.name = 'High value'`);
    const described = Object.fromEntries(rows.map((r) => [r.code, r.description.replace(/[\u00a0\u202f]/g, ' ')]));
    expect(described.ML).toBe('Requests of $10,000.00 or more also go to finance and the group CFO.');
    expect(described.ME).toBe('Requests of €10,000.00 or more also go to the group CFO.');
    expect(described.MF).toBe('Requests of £8,000.00 or more also go to the group CFO.');
    expect(described.MT).toBe('Requests of AED 40,000.00 or more also go to the group CFO.');
    const [reason] = await q<{ text: string }>(sql`
      SELECT r.route_reason->>0 AS text FROM spending_requests r WHERE r.route_reason->>0 LIKE 'Workflow "High value"%' LIMIT 1`);
    expect(reason?.text).toMatch(/matched: (\$|€|£|AED\s)[\d,]+\.\d\d is at least (\$|€|£|AED\s)[\d,]+\.00$/);
    const [auto] = await q<{ text: string }>(sql`
      SELECT r.route_reason->>0 AS text FROM spending_requests r WHERE r.route_reason->>0 LIKE 'Auto-approval rule%' LIMIT 1`);
    expect(auto?.text).toMatch(/applied: \$[\d,]+\.\d\d is at most \$100\.00, category /);
  });

  it('keeps the route consistent with the status', async () => {
    // Pending: exactly one active step, with at least one open assignment.
    const pending = await q<{ id: string; active: number; open: number }>(sql`
      SELECT r.id,
        (SELECT count(*)::int FROM approval_steps s WHERE s.request_id = r.id AND s.status = 'active') AS active,
        (SELECT count(*)::int FROM approval_assignments a JOIN approval_steps s ON s.id = a.step_id
          WHERE a.request_id = r.id AND s.status = 'active' AND a.status = 'open') AS open
      FROM spending_requests r WHERE r.status = 'pending'`);
    expect(pending.length).toBeGreaterThan(5);
    for (const p of pending) {
      expect(p.active, p.id).toBe(1);
      expect(p.open, p.id).toBeGreaterThanOrEqual(1);
    }
    const [stepMismatch] = await q<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM spending_requests r JOIN approval_steps s ON s.request_id = r.id AND s.status = 'active'
      WHERE r.status IN ('pending', 'info_requested') AND r.current_step IS DISTINCT FROM s.position`);
    expect(stepMismatch?.n).toBe(0);
    // Approved and paid: every step approved (auto-approved ones have none).
    const [notApproved] = await q<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM approval_steps s JOIN spending_requests r ON r.id = s.request_id
      WHERE r.status IN ('approved', 'paid') AND s.status <> 'approved'`);
    expect(notApproved?.n).toBe(0);
    const [noDecision] = await q<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM spending_requests WHERE status IN ('approved', 'paid', 'rejected') AND decided_at IS NULL`);
    expect(noDecision?.n).toBe(0);
    // Rejected: one rejected step and a reason; paid: the payment fields.
    const [rejected] = await q<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM spending_requests r WHERE r.status = 'rejected'
      AND (r.rejection_reason IS NULL OR (SELECT count(*) FROM approval_steps s WHERE s.request_id = r.id AND s.status = 'rejected') <> 1)`);
    expect(rejected?.n).toBe(0);
    const [unpaid] = await q<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM spending_requests WHERE status = 'paid'
      AND (paid_at IS NULL OR payment_date IS NULL OR payment_reference IS NULL OR paid_by_id IS NULL OR paid_at < decided_at)`);
    expect(unpaid?.n).toBe(0);
    // Drafts were never submitted and have no route.
    const [drafts] = await q<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM spending_requests r WHERE r.status = 'draft'
      AND (r.submitted_at IS NOT NULL OR EXISTS (SELECT 1 FROM approval_steps s WHERE s.request_id = r.id))`);
    expect(drafts?.n).toBe(0);
    // Segregation of duties, one live assignment per person per step, one decision per decided assignment.
    const [own] = await q<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM approval_assignments a JOIN spending_requests r ON r.id = a.request_id WHERE a.approver_id = r.requester_id`);
    expect(own?.n).toBe(0);
    const [undecided] = await q<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM approval_assignments a
      WHERE a.status IN ('approved', 'rejected', 'info_requested')
      AND NOT EXISTS (SELECT 1 FROM approval_decisions d WHERE d.assignment_id = a.id AND d.decision = a.status AND d.decider_id = a.approver_id)`);
    expect(undecided?.n).toBe(0);
    const [outOfWindow] = await q<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM approval_decisions d JOIN approval_steps s ON s.id = d.step_id
      WHERE d.created_at < s.activated_at OR (s.completed_at IS NOT NULL AND d.created_at > s.completed_at)`);
    expect(outOfWindow?.n).toBe(0);
  });

  it('stores money exactly: 2-decimal strings, FX consistent, line items and allocations adding up', async () => {
    const rows = await t.db
      .select({
        amount: spendingRequests.amount,
        amountOrg: spendingRequests.amountOrg,
        amountGroup: spendingRequests.amountGroup,
        approvedAmount: spendingRequests.approvedAmount,
      })
      .from(spendingRequests);
    for (const r of rows) {
      for (const v of [r.amount, r.amountOrg, r.amountGroup]) expect(v).toMatch(/^\d+\.\d{2}$/);
      if (r.approvedAmount !== null) expect(r.approvedAmount).toMatch(/^\d+\.\d{2}$/);
    }
    const [fx] = await q<{ n: number; foreign: number }>(sql`
      SELECT count(*) FILTER (WHERE abs(round(amount * fx_rate, 2) - amount_org) > 0.01 OR abs(round(amount * group_fx_rate, 2) - amount_group) > 0.01)::int AS n,
             count(*) FILTER (WHERE currency <> org_currency)::int AS foreign
      FROM spending_requests`);
    expect(fx?.n).toBe(0);
    expect(fx?.foreign).toBeGreaterThan(5);
    const [sameCurrency] = await q<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM spending_requests WHERE currency = org_currency AND (fx_rate <> 1 OR amount_org <> amount)`,
    );
    expect(sameCurrency?.n).toBe(0);
    const allocations = await q<{ total: string }>(
      sql`SELECT sum(percent)::numeric(6,2)::text AS total FROM request_allocations GROUP BY request_id`,
    );
    expect(allocations.length).toBeGreaterThan(5);
    for (const a of allocations) expect(a.total).toBe('100.00');
    const [items] = await q<{ requests: number; wrong: number; partial: number }>(sql`
      SELECT count(*)::int AS requests,
        count(*) FILTER (WHERE total <> amount)::int AS wrong,
        count(*) FILTER (WHERE rejected > 0)::int AS partial
      FROM (SELECT r.amount, sum(li.amount + li.tax_amount) AS total, count(*) FILTER (WHERE li.status = 'rejected') AS rejected
            FROM spending_requests r JOIN request_line_items li ON li.request_id = r.id GROUP BY r.id, r.amount) x`);
    expect(items?.requests).toBeGreaterThan(5);
    expect(items?.wrong).toBe(0);
    expect(items?.partial).toBeGreaterThan(0);
    const [approvedAmount] = await q<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM spending_requests r WHERE r.status IN ('approved', 'paid') AND r.approved_amount <> r.amount - COALESCE(
        (SELECT sum(li.amount + li.tax_amount) FROM request_line_items li WHERE li.request_id = r.id AND li.status = 'rejected'), 0)`);
    expect(approvedAmount?.n).toBe(0);
  });

  it('fills the demo approvers’ queues, with overdue items, and rita’s request waiting for information', async () => {
    const queues = await q<{ username: string; open: number; overdue: number }>(sql`
      SELECT u.username, count(*)::int AS open, count(*) FILTER (WHERE s.due_at < now())::int AS overdue
      FROM approval_assignments a JOIN approval_steps s ON s.id = a.step_id AND s.status = 'active'
      JOIN spending_requests r ON r.id = a.request_id AND r.status = 'pending'
      JOIN users u ON u.id = a.approver_id WHERE a.status = 'open' GROUP BY u.username`);
    const by = Object.fromEntries(queues.map((x) => [x.username, x]));
    for (const who of ['max', 'dana', 'grace', 'carla']) expect(by[who]?.open ?? 0, who).toBeGreaterThan(0);
    // The subsidiaries' own approvers: heads of department and finance managers (DEMO_STAFF).
    for (const who of ['lukas', 'klara', 'james', 'priya', 'khalid', 'aisha'])
      expect(by[who]?.open ?? 0, who).toBeGreaterThan(0);
    expect(queues.reduce((s, x) => s + x.overdue, 0)).toBeGreaterThan(0);
    expect(queues.reduce((s, x) => s + x.open - x.overdue, 0)).toBeGreaterThan(0);
    const [info] = await q<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM spending_requests r JOIN users u ON u.id = r.requester_id
      WHERE u.username = 'rita' AND r.status = 'info_requested'
      AND EXISTS (SELECT 1 FROM request_comments c WHERE c.request_id = r.id AND c.kind = 'info_request')`);
    expect(info?.n).toBeGreaterThanOrEqual(1);
  });

  it('writes the timeline in order, notifications, and an audit trail that verifies', async () => {
    const [missing] = await q<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM spending_requests r WHERE NOT EXISTS (SELECT 1 FROM request_events e WHERE e.request_id = r.id AND e.type = 'created')
      OR (r.submitted_at IS NOT NULL AND NOT EXISTS (SELECT 1 FROM request_events e WHERE e.request_id = r.id AND e.type = 'submitted'))`);
    expect(missing?.n).toBe(0);
    const [disorder] = await q<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM (SELECT created_at, lag(created_at) OVER (PARTITION BY request_id ORDER BY id) AS prev FROM request_events) x WHERE created_at < prev`);
    expect(disorder?.n).toBe(0);
    const [terminal] = await q<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM spending_requests r WHERE r.status IN ('approved', 'rejected', 'cancelled', 'paid', 'info_requested')
      AND NOT EXISTS (SELECT 1 FROM request_events e WHERE e.request_id = r.id AND e.type = CASE r.status WHEN 'approved' THEN e.type ELSE r.status END
        AND (r.status <> 'approved' OR e.type IN ('approved', 'auto_approved')))`);
    expect(terminal?.n).toBe(0);
    const seqOrder = await q<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM (SELECT created_at, lag(created_at) OVER (ORDER BY seq) AS prev FROM spending_requests) x WHERE created_at < prev`);
    expect(seqOrder[0]?.n).toBe(0);
    const [notes] = await q<{ unread: number; read: number; links: number }>(sql`
      SELECT count(*) FILTER (WHERE read_at IS NULL)::int AS unread, count(read_at)::int AS read,
             count(*) FILTER (WHERE link = '/approvals' OR link LIKE '/requests?id=%')::int AS links FROM notifications`);
    expect(notes?.unread).toBeGreaterThan(0);
    expect(notes?.read).toBeGreaterThan(0);
    expect(notes?.links).toBe((notes?.unread ?? 0) + (notes?.read ?? 0));
    // Every transition of the history is in the audit trail, on the one hash chain.
    const [audit] = await q<{ n: number; events: number }>(sql`
      SELECT (SELECT count(*)::int FROM audit_events WHERE entity_type = 'spending_request' AND metadata->>'source' = 'demo history') AS n,
             (SELECT count(*)::int FROM request_events WHERE type NOT IN ('commented', 'delegated', 'reassigned', 'rerouted', 'attachment_added', 'attachment_removed', 'updated', 'resubmitted')) AS events`);
    expect(audit?.n).toBeGreaterThan(1000);
    expect(audit?.n).toBe(audit?.events);
    const chain = await verifyAuditChain(t.db);
    expect(chain).toMatchObject({ ok: true, firstBrokenId: null });
    expect(chain.checked).toBeGreaterThanOrEqual(audit!.n);
  });

  it('shows the history over HTTP: queues of max, dana and the subsidiaries’ heads, rita’s requests', async () => {
    for (const who of ['max', 'dana', 'lukas', 'james', 'khalid']) {
      const session = await login(t.app, who);
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/approvals/queue?pageSize=100',
        headers: session.headers,
      });
      expect(res.statusCode, who).toBe(200);
      expect(res.json().total, who).toBeGreaterThan(0);
    }
    const rita = await login(t.app, 'rita');
    const mine = await t.app.inject({ method: 'GET', url: '/api/requests/mine?pageSize=100', headers: rita.headers });
    expect(mine.statusCode).toBe(200);
    expect(mine.json().total).toBeGreaterThan(50);
    const [waiting] = await q<{ id: string }>(sql`
      SELECT r.id FROM spending_requests r JOIN users u ON u.id = r.requester_id WHERE u.username = 'rita' AND r.status = 'info_requested' LIMIT 1`);
    const detail = await t.app.inject({ method: 'GET', url: `/api/requests/${waiting!.id}`, headers: rita.headers });
    expect(detail.statusCode).toBe(200);
    expect(detail.json()).toMatchObject({ status: 'info_requested', requester: { name: 'Rita Alvarez' } });
    expect(detail.json().timeline.map((e: { type: string }) => e.type)).toEqual(
      expect.arrayContaining(['created', 'submitted', 'info_requested']),
    );
  });
});
