// Findings (/api/findings): what the demo world shows, findings made of requests raised through
// the API (duplicates, a split purchase, weekend spending), the caller's scope, dismissal with its
// reason and audit, a finding turned into a policy rule, and the findings the job computes and stores.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Decimal from 'decimal.js';
import { and, eq, inArray, sql } from 'drizzle-orm';
import {
  auditEvents,
  categories,
  departments,
  findingDismissals,
  findingRuns,
  organizations,
  policyRules,
  spendingRequests,
  vendors,
} from '@outlay/db';
import type { Finding, FindingList } from '@outlay/contracts';
import { computeStaleFindings } from '../../src/modules/findings/findings.compute.ts';
import { median, medianAbsoluteDeviation, robustZScore } from '../../src/modules/findings/findings.statistics.ts';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';
import { withoutLimitRule } from './approvals-fixtures.ts';

let t: TestContext;
let rita: Session;
let max: Session;
let carla: Session;
let adam: Session;
let klara: Session;
let paul: Session;
let priya: Session;
let ml: string;
let harbor: string;
let categoryMl: string;
let categoryMf: string;
const ids = { duplicates: [] as string[], split: [] as string[], weekend: [] as string[], adamTwins: [] as string[] };

const DAY = 86_400_000;
const iso = (d: Date) => d.toISOString().slice(0, 10);
/** The most recent Saturday at least a week ago (so the max-age rule of the demo has nothing to say). */
function saturdayBefore(weeks: number): string {
  const d = new Date(Date.now() - weeks * 7 * DAY);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 1) % 7));
  return iso(d);
}

const call = (s: Session, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: s.headers, ...(payload ? { payload } : {}) });

async function raise(s: Session, body: Record<string, unknown>): Promise<string> {
  const res = await call(s, 'POST', '/api/requests', { justification: 'Needed for the operation this week.', ...body });
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().id as string;
  const sent = await call(s, 'POST', `/api/requests/${id}/submit`);
  expect(sent.statusCode, sent.body).toBe(200);
  return id;
}

async function findings(s: Session, query = ''): Promise<FindingList> {
  const res = await call(s, 'GET', `/api/findings${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as FindingList;
}

const withRequests = (list: FindingList, wanted: string[]): Finding | undefined =>
  list.items.find((f) => wanted.every((id) => f.requests.some((r) => r.id === id)) && f.requestCount === wanted.length);
/**
 * The split finding with the test's three parts. The demo history follows the calendar, so it may
 * hold requests of Rita's in the same band that week, which rightly join the finding.
 */
const splitOf = (list: FindingList): Finding | undefined =>
  list.items.find((f) => f.kind === 'split' && ids.split.every((id) => f.requests.some((r) => r.id === id)));

beforeAll(async () => {
  t = await createTestApp();
  [rita, max, carla, adam, klara, paul, priya] = (await Promise.all(
    ['rita', 'max', 'carla', 'adam', 'klara', 'paul', 'priya'].map((u) => login(t.app, u)),
  )) as Session[] as [Session, Session, Session, Session, Session, Session, Session];
  const orgs = await t.db.select().from(organizations);
  ml = orgs.find((o) => o.code === 'ML')!.id;
  const mf = orgs.find((o) => o.code === 'MF')!.id;
  const [v] = await t.db.select().from(vendors).where(eq(vendors.name, 'Harbor Fuel Supply'));
  harbor = v!.id;
  const cats = await t.db
    .select()
    .from(categories)
    .where(and(eq(categories.active, true), withoutLimitRule));
  const usable = (org: string) =>
    cats.find((c) => (c.organizationId === org || c.organizationId === null) && c.name !== 'Meals')!.id;
  categoryMl = usable(ml);
  categoryMf = usable(mf);

  const twoDaysAgo = iso(new Date(Date.now() - 2 * DAY));
  // The same diesel order twice, a day apart.
  ids.duplicates.push(
    await raise(rita, {
      title: 'Diesel for the delivery trucks',
      amount: '777.00',
      currency: 'USD',
      categoryId: categoryMl,
      vendorId: harbor,
      expenseDate: twoDaysAgo,
    }),
  );
  ids.duplicates.push(
    await raise(rita, {
      title: 'Diesel for delivery trucks',
      description: 'Refill',
      amount: '777.00',
      currency: 'USD',
      categoryId: categoryMl,
      vendorId: harbor,
      expenseDate: iso(new Date(Date.now() - DAY)),
    }),
  );
  // One purchase in three parts, each just under Meridian Logistics' 5,000.00 approval threshold.
  for (const [n, amount] of [
    [1, '4600.00'],
    [2, '4750.00'],
    [3, '4900.00'],
  ] as const) {
    ids.split.push(
      await raise(rita, {
        title: `Warehouse racking, part ${n}`,
        amount,
        currency: 'USD',
        categoryId: categoryMl,
        expenseDate: twoDaysAgo,
      }),
    );
  }
  // Priya (three requests in the demo) raises seven on Saturdays.
  for (let i = 1; i <= 7; i++) {
    ids.weekend.push(
      await raise(priya, {
        title: `Supplier tasting visit ${i}`,
        amount: `${100 + i}.00`,
        currency: 'GBP',
        categoryId: categoryMf,
        expenseDate: saturdayBefore(i),
      }),
    );
  }
  // Adam's own twins, for the rule that nobody dismisses a finding about their own requests.
  const adamCategory = cats.find((c) => c.organizationId === null && c.name !== 'Meals')?.id ?? categoryMl;
  const anyVendor = (
    await t.db
      .select()
      .from(vendors)
      .where(and(eq(vendors.status, 'active'), eq(vendors.organizationId, orgs.find((o) => o.code === 'MG')!.id)))
      .limit(1)
  )[0];
  for (let i = 0; i < 2; i++) {
    ids.adamTwins.push(
      await raise(adam, {
        title: 'Conference booth deposit',
        amount: '1234.00',
        currency: 'USD',
        categoryId: adamCategory,
        vendorId: anyVendor!.id,
        expenseDate: twoDaysAgo,
      }),
    );
  }
}, 120_000);
afterAll(async () => t.close());

describe('GET /api/findings', () => {
  it('is refused without reports.read', async () => {
    for (const s of [rita, paul]) {
      const res = await call(s, 'GET', '/api/findings');
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBeTruthy();
    }
  });

  it('finds amount outliers in the demo world, by the modified z-score within organization and category', async () => {
    const list = await findings(carla, '?kind=outlier');
    expect(list.counts.outlier).toBeGreaterThan(0);
    expect(list.items.length).toBe(list.counts.outlier);
    expect(list.requestsExamined).toBeGreaterThan(400);
    const top = list.items[0]!;
    expect(top.kind).toBe('outlier');
    expect(top.requestCount).toBe(1);
    // The same statistic from the rows themselves: the request's amount against its organization and category.
    const [row] = await t.db.select().from(spendingRequests).where(eq(spendingRequests.id, top.requests[0]!.id));
    const peers = await t.db
      .select({ v: spendingRequests.amountOrg })
      .from(spendingRequests)
      .where(
        and(
          eq(spendingRequests.organizationId, row!.organizationId),
          eq(spendingRequests.categoryId, row!.categoryId!),
          sql`${spendingRequests.status} NOT IN ('draft', 'cancelled')`,
          sql`${spendingRequests.createdAt} >= ${new Date(Date.now() - 366 * DAY).toISOString()}`,
        ),
      );
    const values = peers.map((p) => Number(p.v));
    const z = robustZScore(Number(row!.amountOrg), median(values)!, medianAbsoluteDeviation(values)!)!;
    expect(z).toBeGreaterThan(3.5);
    expect(top.score).toBeCloseTo(z, 1);
    expect(top.total).toEqual({ amount: row!.amountOrg, currency: row!.orgCurrency });
    expect(top.ruleSuggestion).toMatch(/^Category limit per request/);
  });

  it('finds the duplicate pair, the split purchase and the weekend spending raised through the API', async () => {
    const list = await findings(carla);
    const dup = withRequests(list, ids.duplicates);
    expect(dup).toMatchObject({
      kind: 'duplicate',
      organizationName: 'Meridian Logistics',
      total: { amount: '1554.00', currency: 'USD' },
      dismissal: null,
    });
    expect(dup!.detail).toMatch(/Same vendor and amount 1 day apart/);
    const split = splitOf(list);
    expect(split, JSON.stringify(list.items.filter((f) => f.kind === 'split'))).toBeDefined();
    expect(split).toMatchObject({ kind: 'split', severity: 'high', requestCount: split!.requests.length });
    // Any other part is Rita's and in the band, and the total is exactly the parts' sum.
    const parts = await t.db
      .select()
      .from(spendingRequests)
      .where(
        inArray(
          spendingRequests.id,
          split!.requests.map((r) => r.id),
        ),
      );
    for (const part of parts) {
      expect(part.requesterId).toBe(parts.find((p) => p.id === ids.split[0])!.requesterId);
      expect(Number(part.amountOrg)).toBeGreaterThanOrEqual(4000);
      expect(Number(part.amountOrg)).toBeLessThan(5000);
    }
    const sum = parts.reduce((total, p) => total.plus(p.amountOrg), new Decimal(0));
    expect(split!.total).toEqual({ amount: sum.toFixed(2), currency: 'USD' });
    expect(split!.title).toBe(`${parts.length} requests just under the $5,000.00 approval threshold`);
    expect(split!.requests.map((r) => r.reference)).toEqual(
      [...split!.requests.map((r) => r.reference)].sort().reverse(),
    );
    const weekend = list.items.find(
      (f) => f.kind === 'timing' && ids.weekend.every((id) => f.requests.some((r) => r.id === id)),
    );
    expect(weekend, JSON.stringify(list.items.filter((f) => f.kind === 'timing'))).toBeDefined();
    expect(weekend!.title).toMatch(/^Priya Shah spends on weekends/);
    expect(list.benfordMinCount).toBe(100);
  });

  it('keeps to the caller’s scope: a department sees its own, another organization none of them', async () => {
    const maxList = await findings(max);
    expect(withRequests(maxList, ids.duplicates)).toBeDefined();
    expect(maxList.items.some((f) => f.requests.some((r) => ids.weekend.includes(r.id)))).toBe(false);
    const klaraList = await findings(klara);
    expect(klaraList.items.some((f) => f.requests.some((r) => [...ids.duplicates, ...ids.split].includes(r.id)))).toBe(
      false,
    );
    expect(klaraList.requestsExamined).toBeLessThan(
      maxList.requestsExamined + (await findings(carla)).requestsExamined,
    );
  });

  it('refuses a period longer than a year', async () => {
    const res = await call(carla, 'GET', '/api/findings?months=13');
    expect(res.statusCode).toBe(400);
  });
});

describe('POST /api/findings/dismissals', () => {
  it('needs audit.read', async () => {
    const dup = withRequests(await findings(max), ids.duplicates)!;
    const res = await call(max, 'POST', '/api/findings/dismissals', { key: dup.key, reason: 'Looks fine to me' });
    expect(res.statusCode).toBe(403);
  });

  it('dismisses with the reason, audited; the finding moves to the dismissed ones', async () => {
    const dup = withRequests(await findings(carla), ids.duplicates)!;
    const short = await call(carla, 'POST', '/api/findings/dismissals', { key: dup.key, reason: 'no' });
    expect(short.statusCode).toBe(400);
    const res = await call(carla, 'POST', '/api/findings/dismissals', {
      key: dup.key,
      reason: 'Two deliveries, checked with the depot',
    });
    expect(res.statusCode, res.body).toBe(201);
    const [row] = await t.db.select().from(findingDismissals).where(eq(findingDismissals.key, dup.key));
    expect(row).toMatchObject({
      kind: 'duplicate',
      reason: 'Two deliveries, checked with the depot',
      organizationId: ml,
    });
    expect([...row!.requestIds].sort()).toEqual([...ids.duplicates].sort());
    const [audit] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, dup.key), eq(auditEvents.action, 'finding.dismissed')));
    expect(audit).toMatchObject({ entityType: 'finding' });
    expect(withRequests(await findings(carla), ids.duplicates)).toBeUndefined();
    const dismissed = withRequests(await findings(carla, '?status=dismissed'), ids.duplicates)!;
    expect(dismissed.dismissal).toMatchObject({
      reason: 'Two deliveries, checked with the depot',
      dismissedByName: 'Carla Mendes',
    });
    const again = await call(carla, 'POST', '/api/findings/dismissals', { key: dup.key, reason: 'Once more' });
    expect(again.statusCode).toBe(409);
  });

  it('answers 404 for a finding that is not there', async () => {
    const res = await call(carla, 'POST', '/api/findings/dismissals', {
      key: 'duplicate:nothing',
      reason: 'Not a finding',
    });
    expect(res.statusCode).toBe(404);
  });

  it('leaves a finding about one’s own requests to someone else', async () => {
    expect(ids.adamTwins).toHaveLength(2);
    const own = withRequests(await findings(adam), ids.adamTwins)!;
    expect(own.kind).toBe('duplicate');
    const res = await call(adam, 'POST', '/api/findings/dismissals', { key: own.key, reason: 'Nothing to see here' });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toMatch(/your own requests/);
  });
});

describe('POST /api/findings/rules', () => {
  it('needs policies.manage', async () => {
    const split = splitOf(await findings(carla))!;
    const res = await call(carla, 'POST', '/api/findings/rules', { key: split.key });
    expect(res.statusCode).toBe(403);
  });

  it('turns a split purchase into a rule for amounts just under the threshold, made by the policies service; the finding is then dismissed', async () => {
    const split = splitOf(await findings(adam))!;
    const res = await call(adam, 'POST', '/api/findings/rules', { key: split.key, action: 'warn' });
    expect(res.statusCode, res.body).toBe(201);
    const rule = res.json();
    expect(rule).toMatchObject({
      kind: 'custom',
      action: 'warn',
      organizationId: ml,
      name: 'Just under the $5,000.00 approval threshold',
      version: 1,
    });
    expect(rule.conditions).toEqual({
      op: 'and',
      items: [
        { field: 'amountOrg', operator: 'gte', value: '4000.00' },
        { field: 'amountOrg', operator: 'lt', value: '5000.00' },
      ],
    });
    const [stored] = await t.db.select().from(policyRules).where(eq(policyRules.id, rule.id));
    expect(stored).toBeDefined();
    const actions = (
      await t.db
        .select({ action: auditEvents.action, entityId: auditEvents.entityId })
        .from(auditEvents)
        .where(sql`${auditEvents.entityId} IN (${rule.id}, ${split.key})`)
    ).map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(['policy.created', 'finding.ruled']));
    const dismissed = splitOf(await findings(adam, '?status=dismissed'))!;
    expect(dismissed.dismissal!.reason).toBe(
      'Turned into the policy rule "Just under the $5,000.00 approval threshold"',
    );
    // The rule works: the next request just under the threshold is flagged at submission.
    const next = await raise(rita, {
      title: 'Warehouse racking, part 4',
      amount: '4800.00',
      currency: 'USD',
      categoryId: categoryMl,
    });
    const [row] = await t.db
      .select({ findings: spendingRequests.policyFindings })
      .from(spendingRequests)
      .where(eq(spendingRequests.id, next));
    expect(JSON.stringify(row!.findings)).toContain(rule.id);
  });

  it('refuses a finding no rule kind fits', async () => {
    // Benford findings have no rule; with no such finding in the demo a missing key is a 404 first.
    const res = await call(adam, 'POST', '/api/findings/rules', {
      key: 'benford:requester:00000000-0000-4000-8000-000000000000',
    });
    expect(res.statusCode).toBe(404);
  });
});

describe('findings computed in the background', () => {
  const MINUTE = 60_000;
  const refresh = async (s: Session, query = '') => {
    const res = await call(s, 'POST', `/api/findings/refresh${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as FindingList;
  };
  const runOf = async (organizationId: string) =>
    (await t.db.select().from(findingRuns).where(eq(findingRuns.organizationId, organizationId)))[0]!;
  const twins = async (title: string, amount: string, second: Record<string, unknown> = {}) => [
    await raise(rita, { title, amount, currency: 'USD', categoryId: categoryMl, vendorId: harbor }),
    await raise(rita, {
      title: `${title} again`,
      amount,
      currency: 'USD',
      categoryId: categoryMl,
      vendorId: harbor,
      ...second,
    }),
  ];

  it('refreshing needs reports.read', async () => {
    const res = await call(rita, 'POST', '/api/findings/refresh');
    expect(res.statusCode).toBe(403);
  });

  it('recomputes an organization whose requests changed, once ten minutes have passed since it was computed', async () => {
    const before = await refresh(carla);
    expect(Date.parse(before.computedAt)).toBeGreaterThan(Date.now() - MINUTE);
    const computedAt = (await runOf(ml)).computedAt!;
    expect((await computeStaleFindings({ db: t.db }, new Date())).computed).toBe(0);
    const pair = await twins('Forklift battery replacement', '2345.00');
    // Within ten minutes of the last run a change waits for the next pass after them.
    expect((await computeStaleFindings({ db: t.db }, new Date())).computed).toBe(0);
    expect(withRequests(await findings(carla), pair)).toBeUndefined();
    const later = new Date(Date.now() + 11 * MINUTE);
    const result = await computeStaleFindings({ db: t.db }, later);
    // Only Meridian Logistics changed (unless the run crossed midnight UTC, when every organization is due).
    if (later.toISOString().slice(0, 10) === computedAt.toISOString().slice(0, 10)) expect(result.computed).toBe(1);
    expect((await runOf(ml)).computedAt!.getTime()).toBe(later.getTime());
    expect(withRequests(await findings(carla), pair)).toMatchObject({
      kind: 'duplicate',
      organizationName: 'Meridian Logistics',
    });
  });

  it('a refresh recomputes at once the organizations whose requests changed since, and leaves the others as they were', async () => {
    await refresh(carla);
    const runsBefore = new Map(
      (await t.db.select().from(findingRuns)).map((r) => [r.organizationId, r.computedAt!.getTime()]),
    );
    expect(runsBefore.size).toBeGreaterThan(1);
    // Nothing changed: nothing is computed again.
    await refresh(carla);
    for (const r of await t.db.select().from(findingRuns))
      expect(r.computedAt!.getTime()).toBe(runsBefore.get(r.organizationId));
    // A pair raised in Meridian Logistics a moment later: shown by the next refresh, with no ten-minute wait.
    const pair = await twins('Reach truck tyres', '1618.00');
    expect(withRequests(await refresh(carla), pair)).toMatchObject({
      kind: 'duplicate',
      organizationName: 'Meridian Logistics',
    });
    for (const r of await t.db.select().from(findingRuns)) {
      if (r.organizationId === ml) expect(r.computedAt!.getTime()).toBeGreaterThan(runsBefore.get(ml)!);
      else expect(r.computedAt!.getTime()).toBe(runsBefore.get(r.organizationId));
    }
  });

  it('recomputes an organization whose request changed (cancelled), not only one with a new request', async () => {
    const pair = await twins('Tail-lift repair', '1432.00');
    expect(withRequests(await refresh(carla), pair)).toBeDefined();
    const cancelled = await call(rita, 'POST', `/api/requests/${pair[1]!}/cancel`, {
      reason: 'Raised twice by mistake',
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const later = new Date(Date.now() + 11 * MINUTE);
    await computeStaleFindings({ db: t.db }, later);
    expect((await runOf(ml)).computedAt!.getTime()).toBe(later.getTime());
    expect(withRequests(await findings(carla), pair)).toBeUndefined();
  });

  it('computes each organization once when two passes run at the same time', async () => {
    const orgCount = (await t.db.select({ id: organizations.id }).from(organizations)).length;
    // The next UTC day: every organization is due.
    const tomorrow = new Date(Date.now() + 24 * 60 * MINUTE);
    const passes = await Promise.all([
      computeStaleFindings({ db: t.db }, tomorrow),
      computeStaleFindings({ db: t.db }, tomorrow),
    ]);
    expect(passes[0].computed + passes[1].computed).toBe(orgCount);
    const runs = await t.db.select().from(findingRuns);
    expect(runs).toHaveLength(orgCount);
    expect(runs.every((r) => r.computedAt?.getTime() === tomorrow.getTime())).toBe(true);
    expect((await computeStaleFindings({ db: t.db }, tomorrow)).computed).toBe(0);
    // Another instance's pass that started a few seconds earlier and reaches an organization after
    // this one computed it finds it fresh: a moment's difference is not a clock gone back.
    expect((await computeStaleFindings({ db: t.db }, new Date(tomorrow.getTime() - 30_000))).computed).toBe(0);
  });

  it('shows a finding only to a reader in whose scope all of its requests are', async () => {
    const [otherDepartment] = await t.db
      .select({ id: departments.id })
      .from(departments)
      .where(and(eq(departments.organizationId, ml), sql`${departments.code} <> 'OPS'`, eq(departments.active, true)))
      .limit(1);
    expect(otherDepartment).toBeDefined();
    const pair = await twins('Pallet wrap for the cross-dock', '876.00', { departmentId: otherDepartment!.id });
    const [second] = await t.db
      .select({ departmentId: spendingRequests.departmentId })
      .from(spendingRequests)
      .where(eq(spendingRequests.id, pair[1]!));
    expect(second!.departmentId).toBe(otherDepartment!.id);
    expect(withRequests(await refresh(carla), pair)).toMatchObject({ kind: 'duplicate' });
    // Max reads Operations only: the twin in another department keeps the pair from him.
    const maxList = await refresh(max);
    expect(maxList.items.some((f) => f.requests.some((r) => pair.includes(r.id)))).toBe(false);
    expect(withRequests(await findings(max, '?status=all'), ids.duplicates)).toBeDefined();
  });

  it('keeps to the period by the newest request of each finding', async () => {
    const pair = await twins('Dock leveller service', '1999.00');
    const fiveMonthsAgo = new Date(Date.now() - 150 * DAY);
    await t.db
      .update(spendingRequests)
      .set({ createdAt: fiveMonthsAgo, expenseDate: iso(fiveMonthsAgo) })
      .where(sql`${spendingRequests.id} IN (${pair[0]!}::uuid, ${pair[1]!}::uuid)`);
    await refresh(carla);
    expect(withRequests(await findings(carla, '?months=12'), pair)).toBeDefined();
    expect(withRequests(await findings(carla, '?months=6'), pair)).toBeDefined();
    const recent = await findings(carla, '?months=3');
    expect(withRequests(recent, pair)).toBeUndefined();
    expect(recent.from).toBe(
      iso(new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() - 3, new Date().getUTCDate()))),
    );
  });
});
