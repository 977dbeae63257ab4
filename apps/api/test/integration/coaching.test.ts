// Coaching (/api/coaching): the caller's own findings, returned requests, spend against the
// department median and tips; never anyone else's requests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import Decimal from 'decimal.js';
import { categories, organizations, spendingRequests, users, vendors } from '@outlay/db';
import type { Coaching } from '@outlay/contracts';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';
import { withoutLimitRule } from './approvals-fixtures.ts';

let t: TestContext;
let rita: Session;
let paul: Session;
let ritaId: string;
const twins: string[] = [];

const call = (s: Session, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: s.headers, ...(payload ? { payload } : {}) });

beforeAll(async () => {
  t = await createTestApp();
  [rita, paul] = (await Promise.all(['rita', 'paul'].map((u) => login(t.app, u)))) as [Session, Session];
  const [r] = await t.db.select({ id: users.id }).from(users).where(eq(users.username, 'rita'));
  ritaId = r!.id;
  const [ml] = await t.db.select().from(organizations).where(eq(organizations.code, 'ML'));
  const [v] = await t.db.select().from(vendors).where(eq(vendors.name, 'Harbor Fuel Supply'));
  const cat = (
    await t.db
      .select()
      .from(categories)
      .where(and(eq(categories.active, true), withoutLimitRule))
  ).find((c) => (c.organizationId === ml!.id || c.organizationId === null) && c.name !== 'Meals')!;
  const day = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  for (const title of ['Forklift tyres for the depot', 'Forklift tyres for depot']) {
    const res = await call(rita, 'POST', '/api/requests', {
      title,
      amount: '888.00',
      currency: 'USD',
      categoryId: cat.id,
      vendorId: v!.id,
      expenseDate: day,
      justification: 'Two tyres are worn out.',
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().id as string;
    expect((await call(rita, 'POST', `/api/requests/${id}/submit`)).statusCode).toBe(200);
    twins.push(id);
  }
}, 120_000);
afterAll(async () => t.close());

async function coachingOf(s: Session): Promise<Coaching> {
  const res = await call(s, 'GET', '/api/coaching');
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Coaching;
}

describe('GET /api/coaching', () => {
  it('needs a session', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/coaching' });
    expect(res.statusCode).toBe(401);
  });

  it('shows twelve months of my requests with the findings about them, and a tip drawn from them', async () => {
    const c = await coachingOf(rita);
    expect(c.months).toHaveLength(12);
    expect(c.months.at(-1)!.month).toBe(new Date().toISOString().slice(0, 7));
    expect(c.months.reduce((s, m) => s + m.requests, 0)).toBeGreaterThan(20);
    // The second twin met the demo's duplicate rule at submission: a policy finding this month.
    expect(c.months.at(-1)!.flagged).toBeGreaterThanOrEqual(1);
    const dup = c.findings.find(
      (f) => f.kind === 'duplicate' && twins.every((id) => f.requests.some((r) => r.id === id)),
    );
    expect(dup).toBeDefined();
    expect(c.tips.map((tip) => tip.title)).toContain('Check before raising a request again');
    expect(c.tips.some((tip) => /flagged by it$/.test(tip.basis))).toBe(true);
  });

  it('lists my requests that were rejected or sent back, with the reason', async () => {
    const c = await coachingOf(rita);
    const mine = await t.db
      .select({ id: spendingRequests.id })
      .from(spendingRequests)
      .where(eq(spendingRequests.requesterId, ritaId));
    const ids = new Set(mine.map((m) => m.id));
    expect(c.returned.length).toBeGreaterThan(0);
    for (const r of c.returned) {
      expect(ids.has(r.id)).toBe(true);
      expect(['rejected', 'info_requested']).toContain(r.decision);
    }
    expect(c.returned.some((r) => r.reason)).toBe(true);
  });

  it('shows my spend, and no department median over three people (it would be a colleague’s own twelve months)', async () => {
    const c = await coachingOf(rita);
    expect(c.spend.currency).toBe('USD');
    expect(c.spend.departmentName).toBe('Operations');
    // Operations (ML) is rita, max and dana: the median of three is exactly one of them.
    expect(c.spend.departmentPeople).toBe(3);
    expect(c.spend.departmentMedian).toBeNull();
    expect(c.spend.departmentMedianWithheld).toBe('too_few_people');
    expect(c.tips.map((tip) => tip.title)).not.toContain('Your spend is well above your department’s median');
    // Mine, from the rows: approved and paid, raised in the twelve months.
    const since = new Date(`${c.from}-01T00:00:00Z`);
    const rows = await t.db
      .select({
        amountGroup: spendingRequests.amountGroup,
        createdAt: spendingRequests.createdAt,
        approvedAmount: spendingRequests.approvedAmount,
        amount: spendingRequests.amount,
        rate: spendingRequests.groupFxRate,
      })
      .from(spendingRequests)
      .where(and(eq(spendingRequests.requesterId, ritaId), inArray(spendingRequests.status, ['approved', 'paid'])));
    const expected = rows
      .filter((r) => r.createdAt >= since)
      .reduce(
        (s, r) =>
          s.plus(
            r.approvedAmount && r.approvedAmount !== r.amount
              ? new Decimal(r.approvedAmount).mul(r.rate).toDecimalPlaces(2)
              : r.amountGroup,
          ),
        new Decimal(0),
      );
    expect(c.spend.mine).toBe(expected.toFixed(2));
  });

  it('compares my spend with the median of my department once five people have spend in it', async () => {
    // Two more people's approved requests booked to Operations (ML): five people, a median shown.
    const [ops] = await t.db.select({ departmentId: users.departmentId }).from(users).where(eq(users.id, ritaId));
    const others = await t.db
      .select({ id: users.id })
      .from(users)
      .where(inArray(users.username, ['felix', 'adam']));
    await t.db
      .update(spendingRequests)
      .set({ departmentId: ops!.departmentId })
      .where(
        inArray(
          spendingRequests.requesterId,
          others.map((o) => o.id),
        ),
      );
    const c = await coachingOf(rita);
    expect(c.spend.departmentPeople).toBe(5);
    expect(c.spend.departmentMedianWithheld).toBeNull();
    // The middle of the five people's sums, from the rows.
    const since = new Date(`${c.from}-01T00:00:00Z`);
    const rows = await t.db
      .select({
        requesterId: spendingRequests.requesterId,
        amountGroup: spendingRequests.amountGroup,
        createdAt: spendingRequests.createdAt,
        approvedAmount: spendingRequests.approvedAmount,
        amount: spendingRequests.amount,
        rate: spendingRequests.groupFxRate,
      })
      .from(spendingRequests)
      .where(
        and(
          eq(spendingRequests.departmentId, ops!.departmentId!),
          inArray(spendingRequests.status, ['approved', 'paid']),
        ),
      );
    const sums = new Map<string, Decimal>();
    for (const r of rows.filter((x) => x.createdAt >= since)) {
      const v =
        r.approvedAmount && r.approvedAmount !== r.amount
          ? new Decimal(r.approvedAmount).mul(r.rate).toDecimalPlaces(2)
          : new Decimal(r.amountGroup);
      sums.set(r.requesterId, (sums.get(r.requesterId) ?? new Decimal(0)).plus(v));
    }
    const sorted = [...sums.values()].sort((a, b) => a.comparedTo(b));
    expect(sorted).toHaveLength(5);
    expect(c.spend.departmentMedian).toBe(sorted[2]!.toFixed(2));
  });

  it('shows nobody else’s requests', async () => {
    const c = await coachingOf(paul);
    const all = [...c.findings.flatMap((f) => f.requests.map((r) => r.id)), ...c.returned.map((r) => r.id)];
    const paulRows = await t.db
      .select({ id: spendingRequests.id })
      .from(spendingRequests)
      .innerJoin(users, eq(users.id, spendingRequests.requesterId))
      .where(eq(users.username, 'paul'));
    const his = new Set(paulRows.map((r) => r.id));
    expect(all.every((id) => his.has(id))).toBe(true);
    expect(all.some((id) => twins.includes(id))).toBe(false);
    expect(c.spend.departmentName).toBe('Sales');
  });
});
