import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { requestEvents, spendingRequests, users } from '@outlay/db';
import { convert, groupCurrency } from '../../src/lib/fx.ts';
import { rowsOf } from '../../src/lib/sql.ts';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';
import { createDraft, decide, requestRow, setUpWorld, submit, type World } from './approvals-fixtures.ts';

let t: TestContext;
let w: World;
let rita: Session;
let max: Session;
let dana: Session;
let carla: Session;

beforeAll(async () => {
  t = await createTestApp();
  w = await setUpWorld(t);
  [rita, max, dana, carla] = (await Promise.all(['rita', 'max', 'dana', 'carla'].map((u) => login(t.app, u)))) as [
    Session,
    Session,
    Session,
    Session,
  ];
});
afterAll(async () => t.close());

const get = (s: Session, url: string) => t.app.inject({ method: 'GET', url, headers: s.headers });

async function dashboardOf(s: Session) {
  const res = await get(s, '/api/dashboard');
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const month = () => new Date().toISOString().slice(0, 7);

type RequestRow = typeof spendingRequests.$inferSelect;

/** What a request adds to spend in its organization's currency: the approved part when line items were cut. */
const orgAmountOf = (r: RequestRow) =>
  r.approvedAmount && r.approvedAmount !== r.amount
    ? new Decimal(r.approvedAmount).mul(r.fxRate).toDecimalPlaces(2, Decimal.ROUND_HALF_UP)
    : new Decimal(r.amountOrg);

/**
 * The spend rule, from the rows and the FX table without the spend module: each month's
 * organization-currency amounts added, times that month's average rate as stored, added, and
 * rounded once to the cent.
 */
async function inGroupCurrency(rows: RequestRow[], monthOf: (r: RequestRow) => string): Promise<string> {
  const group = await groupCurrency(t.db);
  const buckets = new Map<string, { month: string; currency: string; amount: Decimal }>();
  for (const r of rows) {
    const key = `${monthOf(r)}|${r.orgCurrency}`;
    const b = buckets.get(key) ?? { month: monthOf(r), currency: r.orgCurrency, amount: new Decimal(0) };
    b.amount = b.amount.plus(orgAmountOf(r));
    buckets.set(key, b);
  }
  let total = new Decimal(0);
  for (const b of buckets.values()) {
    const { rate } = await convert(t.db, { amount: '1', from: b.currency, to: group, date: `${b.month}-01` });
    total = total.plus(b.amount.mul(rate));
  }
  return total.toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2);
}

const decidedMonth = (r: RequestRow) => r.decidedAt!.toISOString().slice(0, 7);

/** Independently of the service: approved + paid requests decided this month, in the group currency, from the rows. */
async function expectedSpendThisMonth(where: (r: RequestRow) => boolean): Promise<string> {
  const rows = await t.db.select().from(spendingRequests);
  return inGroupCurrency(
    rows.filter(
      (r) => ['approved', 'paid'].includes(r.status) && r.decidedAt && decidedMonth(r) === month() && where(r),
    ),
    decidedMonth,
  );
}

/** Independently: approved + paid decided in last month's days 1..`day` (its last day if shorter), from the rows. */
async function expectedSpendLastMonthToDate(day: number): Promise<string> {
  const now = new Date();
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  const rows = await t.db.select().from(spendingRequests);
  return inGroupCurrency(
    rows.filter((r) => {
      const d = r.decidedAt;
      return (
        ['approved', 'paid'].includes(r.status) &&
        d &&
        d.getUTCFullYear() === first.getUTCFullYear() &&
        d.getUTCMonth() === first.getUTCMonth() &&
        d.getUTCDate() <= day
      );
    }),
    decidedMonth,
  );
}

/** Independently: requests waiting for a decision, each month of submission at its rate. */
async function expectedPending(where: (r: RequestRow) => boolean): Promise<string> {
  const rows = await t.db.select().from(spendingRequests);
  return inGroupCurrency(
    rows.filter((r) => ['pending', 'info_requested'].includes(r.status) && where(r)),
    (r) => (r.submittedAt ?? r.createdAt).toISOString().slice(0, 7),
  );
}

describe('GET /api/dashboard', () => {
  it('returns the sections each role may see', async () => {
    const r = await dashboardOf(rita);
    expect(r.mine).not.toBeNull();
    expect(r.queue).toBeNull();
    expect(r.kpis).toBeNull();
    expect(r.spendByMonth).toBeNull();

    const c = await dashboardOf(carla);
    expect(c.kpis).not.toBeNull();
    expect(c.kpis.scopeLabel).toBe('All organizations');
    expect(c.spendByMonth).toHaveLength(12);
    expect(c.spendByMonth.at(-1).month).toBe(month());

    const m = await dashboardOf(max);
    expect(m.queue).not.toBeNull();

    const d = await dashboardOf(dana);
    const [danaRow] = await t.db.select().from(users).where(eq(users.username, 'dana'));
    const [dept] = rowsOf<{ name: string }>(
      await t.db.execute(sql`SELECT name FROM departments WHERE id = ${danaRow!.departmentId}`),
    );
    expect(d.kpis.scopeLabel).toBe(dept!.name);
  });

  it('moves spend, pending value and the queue by exactly what was approved and submitted', async () => {
    const before = await dashboardOf(carla);
    const maxBefore = await dashboardOf(max);
    const ritaBefore = await dashboardOf(rita);

    const a = await createDraft(t, rita, w, { title: 'Dashboard fixture A', amount: '120.00' });
    const b = await createDraft(t, rita, w, { title: 'Dashboard fixture B', amount: '75.50' });
    for (const id of [a, b]) expect((await submit(t, rita, id)).statusCode).toBe(200);
    const maxMid = await dashboardOf(max);
    expect(maxMid.queue.open).toBe(maxBefore.queue.open + 2);

    expect((await decide(t, max, a, { decision: 'approved' })).statusCode).toBe(200);
    expect((await decide(t, dana, a, { decision: 'approved' })).statusCode).toBe(200);
    const rowA = await requestRow(t, a);
    const rowB = await requestRow(t, b);
    expect(rowA.status).toBe('approved');

    const after = await dashboardOf(carla);
    // Both are in the group currency (rate 1), so each figure moves by exactly their amounts.
    expect([rowA.orgCurrency, rowB.orgCurrency]).toEqual([after.currency, after.currency]);
    expect(after.kpis.spendThisMonth).toBe(new Decimal(before.kpis.spendThisMonth).plus(rowA.amountOrg).toFixed(2));
    expect(after.kpis.pendingValue).toBe(new Decimal(before.kpis.pendingValue).plus(rowB.amountOrg).toFixed(2));
    expect(after.kpis.pendingCount).toBe(before.kpis.pendingCount + 1);
    // And against the rows, computed without the service.
    expect(after.kpis.spendThisMonth).toBe(await expectedSpendThisMonth(() => true));
    expect(after.kpis.pendingValue).toBe(await expectedPending(() => true));
    expect(after.spendByMonth.at(-1).total).toBe(after.kpis.spendThisMonth);
    expect(after.spendByMonth.at(-2).total).toBe(after.kpis.spendLastMonth);
    // The change compares like with like: this month so far against last month's same days.
    const day = new Date().getUTCDate();
    expect(after.kpis.comparedDays).toBe(day);
    const sameDays = await expectedSpendLastMonthToDate(day);
    expect(after.kpis.spendLastMonthToDate).toBe(sameDays);
    expect(after.kpis.spendChangePercent).toBe(
      new Decimal(sameDays).isZero()
        ? null
        : new Decimal(after.kpis.spendThisMonth)
            .minus(sameDays)
            .div(sameDays)
            .mul(100)
            .toDecimalPlaces(1, Decimal.ROUND_HALF_UP)
            .toFixed(1),
    );

    // dana's KPIs: her department only.
    const d = await dashboardOf(dana);
    expect(d.kpis.spendThisMonth).toBe(await expectedSpendThisMonth((r) => r.departmentId === rowA.departmentId));
    expect(d.kpis.pendingValue).toBe(await expectedPending((r) => r.departmentId === rowA.departmentId));

    // rita: her requests by status, and the decisions she received, newest first.
    const r = await dashboardOf(rita);
    const count = (x: { mine: { byStatus: { status: string; count: number }[] } }, s: string) =>
      x.mine.byStatus.find((c) => c.status === s)?.count ?? 0;
    expect(count(r, 'approved')).toBe(count(ritaBefore, 'approved') + 1);
    expect(count(r, 'pending')).toBe(count(ritaBefore, 'pending') + 1);
    expect(r.mine.recentDecisions[0]).toMatchObject({
      requestId: a,
      decision: 'approved',
      decidedBy: expect.stringContaining('Dana'),
    });
    expect(r.mine.recentDecisions.length).toBeLessThanOrEqual(5);
    const [ritaRow] = await t.db.select().from(users).where(eq(users.username, 'rita'));
    const latest = rowsOf<{ request_id: string; decided_at: Date | string }>(
      await t.db
        .execute(sql`SELECT d.request_id, d.created_at AS decided_at FROM approval_decisions d JOIN spending_requests q ON q.id = d.request_id
          WHERE q.requester_id = ${ritaRow!.id} ORDER BY d.created_at DESC, d.id LIMIT 5`),
    );
    expect(
      r.mine.recentDecisions.map((x: { requestId: string; decidedAt: string }) => [x.requestId, x.decidedAt]),
    ).toEqual(latest.map((x) => [x.request_id, new Date(x.decided_at).toISOString()]));

    const maxAfter = await dashboardOf(max);
    expect(maxAfter.queue.open).toBe(maxBefore.queue.open + 1);
  });

  it('counts overdue items in the queue and raises an alert', async () => {
    const id = await createDraft(t, rita, w, { title: 'Dashboard overdue', amount: '10.00' });
    expect((await submit(t, rita, id)).statusCode).toBe(200);
    await t.db.execute(
      sql`UPDATE approval_steps SET due_at = now() - interval '1 hour' WHERE request_id = ${id} AND status = 'active'`,
    );
    const m = await dashboardOf(max);
    expect(m.queue.overdue).toBeGreaterThanOrEqual(1);
    expect(m.alerts.some((a: { kind: string }) => a.kind === 'overdue_approvals')).toBe(true);
  });
});

describe('GET /api/dashboard/activity', () => {
  it('lists events newest first with actor, reference and one line of text', async () => {
    const id = await createDraft(t, rita, w, { title: 'Dashboard activity', amount: '33.00' });
    expect((await submit(t, rita, id)).statusCode).toBe(200);
    expect((await decide(t, max, id, { decision: 'approved' })).statusCode).toBe(200);
    const res = await get(carla, '/api/dashboard/activity?pageSize=10');
    expect(res.statusCode, res.body).toBe(200);
    const feed = res.json();
    expect(feed.items.length).toBe(10);
    expect(feed.total).toBeGreaterThan(10);
    const times = feed.items.map((i: { at: string }) => i.at);
    expect([...times].sort().reverse()).toEqual(times);
    const first = feed.items[0];
    expect(first).toMatchObject({
      requestId: id,
      type: 'step_approved',
      actorName: expect.stringContaining('Max'),
      title: 'Dashboard activity',
    });
    expect(first.reference).toMatch(/^REQ-\d{6}$/);
    expect(first.text).toContain(first.reference);
    const page2 = (await get(carla, '/api/dashboard/activity?pageSize=10&page=2')).json();
    expect(page2.items[0].id).not.toBe(first.id);
  });

  it('shows a department head only what she may see', async () => {
    // An event on another organization's request, newer than everything else.
    const [danaRow] = await t.db.select().from(users).where(eq(users.username, 'dana'));
    const [foreign] = rowsOf<{ id: string }>(
      await t.db.execute(
        sql`SELECT id FROM spending_requests WHERE organization_id <> ${danaRow!.organizationId} ORDER BY seq LIMIT 1`,
      ),
    );
    await t.db.insert(requestEvents).values({
      requestId: foreign!.id,
      type: 'commented',
      note: 'elsewhere',
      createdAt: new Date(Date.now() + 60_000),
    });
    const carlaFeed = (await get(carla, '/api/dashboard/activity?pageSize=5')).json();
    expect(carlaFeed.items[0].requestId).toBe(foreign!.id);
    const danaFeed = (await get(dana, '/api/dashboard/activity?pageSize=100')).json();
    expect(danaFeed.items.some((i: { requestId: string }) => i.requestId === foreign!.id)).toBe(false);
    const ids = [...new Set(danaFeed.items.map((i: { requestId: string }) => i.requestId))] as string[];
    for (const rid of ids) {
      const [r] = rowsOf<{ ok: boolean }>(
        await t.db.execute(sql`SELECT (department_id = ${danaRow!.departmentId} OR requester_id = ${danaRow!.id}
          OR EXISTS (SELECT 1 FROM approval_assignments a WHERE a.request_id = r.id AND a.approver_id = ${danaRow!.id})) AS ok
          FROM spending_requests r WHERE id = ${rid}`),
      );
      expect(r!.ok, rid).toBe(true);
    }
    const ritaFeed = (await get(rita, '/api/dashboard/activity?pageSize=100')).json();
    const [ritaRow] = await t.db.select().from(users).where(eq(users.username, 'rita'));
    for (const item of ritaFeed.items) {
      const row = await requestRow(t, item.requestId);
      expect(row.requesterId).toBe(ritaRow!.id);
    }
  });
});

describe('the 30-day cycle time', () => {
  /** Independently of the aggregate: one average over the requests decided since `since`, within `scope`. */
  async function expectedCycle(since: string, scope: ReturnType<typeof sql>) {
    const [row] = rowsOf<{ hours: string | null; n: number }>(
      await t.db
        .execute(sql`SELECT round(avg(extract(epoch FROM (decided_at - submitted_at)) / 3600)::numeric, 1)::text AS hours, count(*)::int AS n
          FROM spending_requests WHERE decided_at >= ${since}::timestamptz AND submitted_at IS NOT NULL
           AND status IN ('approved', 'paid', 'rejected') AND ${scope}`),
    );
    return { avgCycleHours: row!.hours, cycleSample: row!.n };
  }
  const sinceOf = (generatedAt: string) => new Date(new Date(generatedAt).getTime() - 30 * 86_400_000).toISOString();

  it('is the mean over the requests decided in the last 30 days, part days at both ends included, for the group and a department', async () => {
    // A decision today, so the window's last part day has one.
    const id = await createDraft(t, rita, w, { title: 'Decided today', amount: '120.00' });
    expect((await submit(t, rita, id)).statusCode).toBe(200);
    expect((await decide(t, max, id, { decision: 'approved' })).statusCode).toBe(200);
    expect((await decide(t, dana, id, { decision: 'approved' })).statusCode).toBe(200);
    expect((await requestRow(t, id)).status).toBe('approved');
    // And one decided 20 s into the window, so its first part day has one too (an import moving dates).
    await t.db.execute(sql`UPDATE spending_requests SET decided_at = now() - interval '30 days' + interval '20 seconds',
        submitted_at = now() - interval '30 days' - interval '5 hours' WHERE id = (
          SELECT id FROM spending_requests WHERE status = 'approved' AND id <> ${id} ORDER BY seq LIMIT 1)`);
    const grace = await login(t.app, 'grace');
    const g = await dashboardOf(grace);
    const group = await expectedCycle(sinceOf(g.generatedAt), sql`true`);
    expect(group.cycleSample).toBeGreaterThan(0);
    expect({ avgCycleHours: g.kpis.avgCycleHours, cycleSample: g.kpis.cycleSample }).toEqual(group);
    const [edges] = rowsOf<{ first: number; today: number }>(
      await t.db
        .execute(sql`SELECT count(*) FILTER (WHERE decided_at < date_trunc('day', ${sinceOf(g.generatedAt)}::timestamptz AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' + interval '1 day')::int AS first,
            count(*) FILTER (WHERE decided_at >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')::int AS today
          FROM spending_requests WHERE decided_at >= ${sinceOf(g.generatedAt)}::timestamptz AND submitted_at IS NOT NULL AND status IN ('approved', 'paid', 'rejected')`),
    );
    expect(edges!.today).toBeGreaterThan(0);
    expect(edges!.first).toBeGreaterThan(0);

    const [danaRow] = await t.db.select().from(users).where(eq(users.username, 'dana'));
    const d = await dashboardOf(dana);
    expect({ avgCycleHours: d.kpis.avgCycleHours, cycleSample: d.kpis.cycleSample }).toEqual(
      await expectedCycle(sinceOf(d.generatedAt), sql`department_id = ${danaRow!.departmentId}`),
    );
    expect(d.kpis.cycleSample).toBeGreaterThan(0);
  });
});

describe('GET /api/expense-tracking', () => {
  it('refuses scopes the caller may not use', async () => {
    for (const scope of ['department', 'organization', 'group']) {
      const res = await get(rita, `/api/expense-tracking?scope=${scope}`);
      expect(res.statusCode, scope).toBe(403);
    }
    expect((await get(max, '/api/expense-tracking?scope=organization')).statusCode).toBe(403);
    expect((await get(max, '/api/expense-tracking?scope=group')).statusCode).toBe(403);
    expect((await get(max, '/api/expense-tracking?scope=department')).statusCode).toBe(200);
    expect((await get(rita, '/api/expense-tracking?from=2026-05&to=2026-01')).statusCode).toBe(400);
  });

  it('gives approved and paid by month, receipts and the scopes on offer', async () => {
    const r = (await get(rita, '/api/expense-tracking')).json();
    expect(r.availableScopes).toEqual(['me']);
    expect(r.months).toHaveLength(12);
    expect(r.months.at(-1).month).toBe(month());
    const [ritaRow] = await t.db.select().from(users).where(eq(users.username, 'rita'));
    expect(r.months.at(-1).total).toBe(await expectedSpendThisMonth((x) => x.requesterId === ritaRow!.id));
    expect(r.months.at(-1).budget).toBeNull();
    expect(r.receipts.withReceipt + r.receipts.withoutReceipt).toBe(r.totals.count);

    const c = (await get(carla, '/api/expense-tracking?scope=group')).json();
    expect(c.availableScopes).toEqual(expect.arrayContaining(['me', 'organization', 'group']));
    expect(c.months.at(-1).total).toBe(await expectedSpendThisMonth(() => true));
    // The twelve months' total is the rule over all their requests (rounded once), not the sum of the rounded months.
    const decidedInPeriod = (r: RequestRow) =>
      ['approved', 'paid'].includes(r.status) &&
      r.decidedAt !== null &&
      decidedMonth(r) >= c.from &&
      decidedMonth(r) <= c.to;
    expect(c.totals.total).toBe(
      await inGroupCurrency((await t.db.select().from(spendingRequests)).filter(decidedInPeriod), decidedMonth),
    );
    const summed = c.months.reduce((acc: Decimal, m: { total: string }) => acc.plus(m.total), new Decimal(0));
    expect(summed.minus(c.totals.total).abs().lte(new Decimal('0.01').mul(c.months.length))).toBe(true);

    // Receipts: files attached to three decided requests (a receipt import), then the approved and
    // paid requests decided in the months, with an attachment or not, from the rows.
    await t.db
      .execute(sql`INSERT INTO request_attachments (request_id, file_name, content_type, size, sha256, storage_key, uploaded_by_id)
        SELECT id, 'receipt.pdf', 'application/pdf', 1000, repeat('0', 64), 'import/' || id, requester_id FROM spending_requests
         WHERE status IN ('approved', 'paid') AND to_char(decided_at AT TIME ZONE 'UTC', 'YYYY-MM') BETWEEN ${c.from} AND ${c.to} ORDER BY seq LIMIT 3`);
    const withFiles = (await get(carla, '/api/expense-tracking?scope=group')).json();
    const attached = new Set(
      rowsOf<{ id: string }>(await t.db.execute(sql`SELECT DISTINCT request_id AS id FROM request_attachments`)).map(
        (r) => r.id,
      ),
    );
    const decidedIn = (await t.db.select().from(spendingRequests)).filter(decidedInPeriod);
    const without = decidedIn.filter((r) => !attached.has(r.id));
    const receipts = {
      with_receipt: decidedIn.length - without.length,
      without_receipt: without.length,
      amount_without: await inGroupCurrency(without, decidedMonth),
    };
    expect(receipts!.with_receipt).toBe(3);
    expect(withFiles.receipts).toEqual({
      withReceipt: receipts!.with_receipt,
      withoutReceipt: receipts!.without_receipt,
      amountWithoutReceipt: receipts!.amount_without,
    });

    const narrow = (await get(carla, `/api/expense-tracking?scope=group&from=${month()}&to=${month()}`)).json();
    expect(narrow.months).toHaveLength(1);
  });
});

describe('budget burn', () => {
  it('reports each line in force with the same consumption as Budget Management, and moves when a request is submitted', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const lines = async () => {
      const res = await get(carla, `/api/budgets/lines?date=${today}&pageSize=100`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().items as {
        id: string;
        committed: string;
        actual: string;
        currency: string;
        periodType: string;
      }[];
    };
    const burnOf = async () =>
      (await dashboardOf(carla)).kpis.budget as {
        linesInForce: number;
        lines: { id: string; consumed: string; currency: string }[];
      };

    const before = await burnOf();
    const managed = new Map((await lines()).map((l) => [l.id, l]));
    expect(before.linesInForce).toBeGreaterThan(0);
    expect(before.lines.length).toBeGreaterThan(0);
    // The seed plans FY, quarter and month lines: the total adds the FY lines only, each once.
    const kpi = (await dashboardOf(carla)).kpis.budget as {
      periodType: string | null;
      countedLines: number;
      linesInForce: number;
    };
    const inForce = await lines();
    expect(kpi.periodType).toBe('year');
    expect(kpi.countedLines).toBeGreaterThan(0);
    expect(kpi.countedLines).toBeLessThanOrEqual(inForce.filter((l) => l.periodType === 'year').length);
    expect(kpi.countedLines).toBeLessThan(kpi.linesInForce);
    for (const l of before.lines) {
      const m = managed.get(l.id);
      expect(m, `line ${l.id} is listed on Budget Management`).toBeDefined();
      expect(l.consumed).toBe(new Decimal(m!.committed).plus(m!.actual).toFixed(2));
    }

    // A submitted request is committed money on the lines it falls under.
    const id = await createDraft(t, rita, w, { title: 'Burn check', amount: '41.00' });
    await submit(t, rita, id);
    const after = new Map((await lines()).map((l) => [l.id, l]));
    const moved = [...after.values()].filter((l) => !new Decimal(l.committed).eq(managed.get(l.id)?.committed ?? '0'));
    expect(moved.length).toBeGreaterThan(0);
    for (const l of moved)
      expect(new Decimal(l.committed).minus(managed.get(l.id)!.committed).toFixed(2)).toBe('41.00');
  });
});
