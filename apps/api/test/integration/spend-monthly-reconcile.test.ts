// spend_monthly is kept by a trigger in the transaction of every request change. Starting from
// the seeded world, a random (seeded, logged) run of money changes through the real API — create,
// edit a draft's amount, category and department, submit, approve, approve with line items
// rejected, reject, ask for information and answer, cancel, pay — and through plain SQL (a script
// moving dates, reclassifying, inserting and deleting rows, attaching and removing receipts) must
// leave the aggregate equal, row for row, to a plain GROUP BY over spending_requests and their
// attachments, the cycle-time histograms (cycle_time_monthly) equal to the same over requests and
// their decided steps, and the daily cycle-time sums (cycle_time_daily) to the same over requests.
// A rolled-back change leaves it untouched.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray, isNull, notInArray, or, sql } from 'drizzle-orm';
import {
  approvalAssignments,
  approvalSteps,
  categories,
  departments,
  requestLineItems,
  spendingRequests,
  users,
  vendors,
} from '@outlay/db';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';
import { createDraft, decide, setUpWorld, submit, withoutLimitRule, type World } from './approvals-fixtures.ts';
import { rowsOf } from '../../src/lib/sql.ts';

let t: TestContext;
let w: World;
const sessions = new Map<string, Session>();
let usernames: Map<string, string>;
let deptIds: string[];
let catIds: string[];
let vendorIds: string[];

beforeAll(async () => {
  t = await createTestApp();
  w = await setUpWorld(t);
  usernames = new Map(
    (await t.db.select({ id: users.id, username: users.username }).from(users)).map((u) => [u.id, u.username]),
  );
  deptIds = (
    await t.db
      .select({ id: departments.id })
      .from(departments)
      .where(and(eq(departments.organizationId, w.org.ML!), eq(departments.active, true)))
  ).map((d) => d.id);
  catIds = (
    await t.db
      .select({ id: categories.id })
      .from(categories)
      .where(
        and(
          or(isNull(categories.organizationId), eq(categories.organizationId, w.org.ML!)),
          eq(categories.active, true),
          withoutLimitRule,
        ),
      )
  ).map((c) => c.id);
  vendorIds = (
    await t.db
      .select({ id: vendors.id })
      .from(vendors)
      .where(
        and(eq(vendors.organizationId, w.org.ML!), notInArray(vendors.status, ['blocked', 'pending_verification'])),
      )
  ).map((v) => v.id);
  expect(deptIds.length).toBeGreaterThan(1);
  expect(catIds.length).toBeGreaterThan(1);
});
afterAll(async () => t.close());

async function session(username: string): Promise<Session> {
  let s = sessions.get(username);
  if (!s) {
    s = await login(t.app, username);
    sessions.set(username, s);
  }
  return s;
}

/** mulberry32: a small seeded PRNG, so a failing run can be replayed with SPEND_RECONCILE_SEED. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!,
    chance: (p: number) => next() < p,
  };
}

const AGGREGATE_KEY =
  'organization_id, department_id, category_id, vendor_id, submitted_month, decided_month, status, currency, has_receipt, org_currency, group_currency';

/** The aggregate as stored, in a stable order and text form. */
async function stored(db: Pick<TestContext['db'], 'execute'> = t.db): Promise<string[]> {
  const rows = rowsOf<Record<string, unknown>>(
    await db.execute(
      sql.raw(`SELECT organization_id::text, department_id::text, category_id::text, vendor_id::text, submitted_month::text, decided_month::text, status,
                 currency::text, has_receipt, org_currency::text, group_currency::text, request_count::int AS n,
                 amount::numeric(20,2)::text AS amount, amount_org::numeric(20,2)::text AS amount_org, amount_group::numeric(20,2)::text AS amount_group
               FROM spend_monthly ORDER BY ${AGGREGATE_KEY}`),
    ),
  );
  return rows.map((r) => JSON.stringify(r));
}

/**
 * The same figures from the requests themselves: one plain GROUP BY over every request, with
 * whether it has a receipt taken from its attachments (not from its has_receipt flag).
 */
async function recomputed(): Promise<string[]> {
  const rows = rowsOf<Record<string, unknown>>(
    await t.db.execute(
      sql.raw(`SELECT organization_id::text, department_id::text, category_id::text, vendor_id::text, submitted_month, decided_month, status,
                 currency::text, receipt AS has_receipt, org_currency::text, group_currency::text, count(*)::int AS n,
                 sum(eff)::numeric(20,2)::text AS amount, sum(eff_org)::numeric(20,2)::text AS amount_org, sum(eff_group)::numeric(20,2)::text AS amount_group
               FROM (
                 SELECT r.*, to_char(coalesce(r.submitted_at, r.created_at) AT TIME ZONE 'UTC', 'YYYY-MM') AS submitted_month,
                        to_char(r.decided_at AT TIME ZONE 'UTC', 'YYYY-MM') AS decided_month, x.eff,
                        CASE WHEN x.eff = r.amount THEN r.amount_org ELSE round(x.eff * r.fx_rate, 2) END AS eff_org,
                        CASE WHEN x.eff = r.amount THEN r.amount_group ELSE round(x.eff * r.group_fx_rate, 2) END AS eff_group,
                        EXISTS (SELECT 1 FROM request_attachments a WHERE a.request_id = r.id) AS receipt
                 FROM spending_requests r
                 CROSS JOIN LATERAL (SELECT CASE WHEN r.status IN ('approved', 'paid') AND r.approved_amount IS NOT NULL THEN r.approved_amount ELSE r.amount END AS eff) x
               ) q
               GROUP BY ${AGGREGATE_KEY.replace('has_receipt', 'receipt')}
               ORDER BY ${AGGREGATE_KEY.replace('has_receipt', 'receipt')}`),
    ),
  );
  return rows.map((r) => JSON.stringify(r));
}

const CYCLE_KEY = 'organization_id, department_id, category_id, month, step_name, bucket';

/** The cycle-time histograms as stored. */
async function storedCycles(): Promise<string[]> {
  const rows = rowsOf<Record<string, unknown>>(
    await t.db.execute(
      sql.raw(`SELECT organization_id::text, department_id::text, category_id::text, month::text, step_name, bucket::int AS bucket, decisions::int AS n
               FROM cycle_time_monthly ORDER BY ${CYCLE_KEY}`),
    ),
  );
  return rows.map((r) => JSON.stringify(r));
}

/** The same histograms from the requests and their decided steps. */
async function recomputedCycles(): Promise<string[]> {
  const rows = rowsOf<Record<string, unknown>>(
    await t.db.execute(
      sql.raw(`SELECT organization_id::text, department_id::text, category_id::text, month, step_name, bucket::int AS bucket, count(*)::int AS n
               FROM (
                 SELECT r.organization_id, r.department_id, r.category_id, to_char(r.decided_at AT TIME ZONE 'UTC', 'YYYY-MM') AS month,
                        NULL::text AS step_name, cycle_time_bucket(r.submitted_at, r.decided_at) AS bucket
                   FROM spending_requests r
                  WHERE r.status IN ('approved', 'paid', 'rejected') AND r.submitted_at IS NOT NULL AND r.decided_at IS NOT NULL
                 UNION ALL
                 SELECT r.organization_id, r.department_id, r.category_id, to_char(s.completed_at AT TIME ZONE 'UTC', 'YYYY-MM'),
                        s.name, cycle_time_bucket(s.activated_at, s.completed_at)
                   FROM approval_steps s JOIN spending_requests r ON r.id = s.request_id
                  WHERE s.status IN ('approved', 'rejected') AND s.activated_at IS NOT NULL AND s.completed_at IS NOT NULL
               ) q
               GROUP BY ${CYCLE_KEY}
               ORDER BY ${CYCLE_KEY}`),
    ),
  );
  return rows.map((r) => JSON.stringify(r));
}

/** The daily sums of whole requests' cycle times, as stored and from the requests. */
async function dailyCycles(): Promise<[string[], string[]]> {
  const order = 'ORDER BY organization_id, department_id, day';
  const stored = rowsOf<Record<string, unknown>>(
    await t.db.execute(
      sql.raw(
        `SELECT organization_id::text, department_id::text, day::text, decisions::int AS n, seconds::numeric(24,6)::text AS seconds FROM cycle_time_daily ${order}`,
      ),
    ),
  );
  const recomputed = rowsOf<Record<string, unknown>>(
    await t.db.execute(
      sql.raw(`SELECT organization_id::text, department_id::text, day::text, count(*)::int AS n, sum(seconds)::numeric(24,6)::text AS seconds
               FROM (SELECT organization_id, department_id, (decided_at AT TIME ZONE 'UTC')::date AS day, extract(epoch FROM (decided_at - submitted_at)) AS seconds
                       FROM spending_requests WHERE status IN ('approved', 'paid', 'rejected') AND submitted_at IS NOT NULL AND decided_at IS NOT NULL) q
               GROUP BY organization_id, department_id, day ${order}`),
    ),
  );
  return [stored.map((r) => JSON.stringify(r)), recomputed.map((r) => JSON.stringify(r))];
}

async function expectReconciled(context: string) {
  const [a, b] = [await stored(), await recomputed()];
  expect(a.length, context).toBeGreaterThan(0);
  expect(a, context).toEqual(b);
  const [c, d] = [await storedCycles(), await recomputedCycles()];
  expect(c.length, context).toBeGreaterThan(0);
  expect(c, `cycle times ${context}`).toEqual(d);
  const [e, f] = await dailyCycles();
  expect(e.length, context).toBeGreaterThan(0);
  expect(e, `daily cycle times ${context}`).toEqual(f);
}

type Tracked = { id: string };

/** The user who may decide the request's active step now (an open assignment), or null. */
async function approverOf(id: string): Promise<string | null> {
  const [a] = await t.db
    .select({ approverId: approvalAssignments.approverId })
    .from(approvalAssignments)
    .innerJoin(approvalSteps, eq(approvalSteps.id, approvalAssignments.stepId))
    .where(
      and(
        eq(approvalAssignments.requestId, id),
        eq(approvalAssignments.status, 'open'),
        eq(approvalSteps.status, 'active'),
      ),
    )
    .limit(1);
  return a ? (usernames.get(a.approverId) ?? null) : null;
}

function money(rnd: ReturnType<typeof prng>): string {
  return `${rnd.int(5, 4000)}.${String(rnd.int(0, 99)).padStart(2, '0')}`;
}

function lineItemsFor(rnd: ReturnType<typeof prng>): {
  amount: string;
  lineItems: { description: string; amount: string; taxAmount: string }[];
} {
  const n = rnd.int(2, 3);
  const cents = Array.from({ length: n }, () => rnd.int(500, 90000));
  const lineItems = cents.map((c, i) => ({
    description: `Item ${i + 1}`,
    amount: (c / 100).toFixed(2),
    taxAmount: '0.00',
  }));
  return { amount: (cents.reduce((s, c) => s + c, 0) / 100).toFixed(2), lineItems };
}

describe('spend_monthly against the requests it sums', () => {
  it(
    'equals a plain GROUP BY over spending_requests after ~200 random money changes',
    { timeout: 600_000 },
    async () => {
      const seed = Number(process.env.SPEND_RECONCILE_SEED ?? Date.now() % 2_147_483_647);
      console.log(`spend-monthly reconcile seed: ${seed} (replay with SPEND_RECONCILE_SEED=${seed})`);
      const rnd = prng(seed);
      const rita = await session('rita');
      const carla = await session('carla');
      const pool: Tracked[] = [];
      const done = new Map<string, number>();
      const count = (op: string) => done.set(op, (done.get(op) ?? 0) + 1);
      const inState = async (...states: string[]): Promise<Tracked[]> => {
        if (pool.length === 0) return [];
        const rows = await t.db
          .select({ id: spendingRequests.id, status: spendingRequests.status })
          .from(spendingRequests)
          .where(
            inArray(
              spendingRequests.id,
              pool.map((p) => p.id),
            ),
          );
        const ok = new Set(rows.filter((r) => states.includes(r.status)).map((r) => r.id));
        return pool.filter((p) => ok.has(p.id));
      };

      const ops: [number, string, () => Promise<boolean>][] = [
        [
          5,
          'create',
          async () => {
            const withItems = rnd.chance(0.35);
            const body = withItems ? lineItemsFor(rnd) : { amount: money(rnd) };
            const id = await createDraft(t, rita, w, {
              ...body,
              title: `Reconcile ${pool.length + 1}`,
              currency: rnd.pick(['USD', 'USD', 'EUR', 'GBP']),
              categoryId: rnd.pick(catIds),
              departmentId: rnd.pick(deptIds),
              vendorId: vendorIds.length && rnd.chance(0.5) ? rnd.pick(vendorIds) : null,
            });
            pool.push({ id });
            return true;
          },
        ],
        [
          3,
          'edit',
          async () => {
            const open = await inState('draft', 'info_requested');
            if (open.length === 0) return false;
            const target = rnd.pick(open);
            const [hasItems] = await t.db
              .select({ id: requestLineItems.id })
              .from(requestLineItems)
              .where(eq(requestLineItems.requestId, target.id))
              .limit(1);
            const change = rnd.int(0, 2);
            const payload =
              change === 0
                ? hasItems
                  ? lineItemsFor(rnd)
                  : { amount: money(rnd) }
                : change === 1
                  ? { categoryId: rnd.pick(catIds) }
                  : { departmentId: rnd.pick(deptIds) };
            const res = await t.app.inject({
              method: 'PATCH',
              url: `/api/requests/${target.id}`,
              headers: rita.headers,
              payload,
            });
            expect(res.statusCode, res.body).toBe(200);
            return true;
          },
        ],
        [
          4,
          'submit',
          async () => {
            const drafts = await inState('draft');
            if (drafts.length === 0) return false;
            const res = await submit(t, rita, rnd.pick(drafts).id);
            // A policy may block the vendor: refused, the draft stays a draft and nothing moves.
            if (res.statusCode === 422 && res.json().code === 'POLICY_VIOLATION') {
              count('submit refused by policy');
              return false;
            }
            expect(res.statusCode, res.body).toBe(200);
            return true;
          },
        ],
        [
          6,
          'approve',
          async () => {
            const pending = await inState('pending');
            if (pending.length === 0) return false;
            const target = rnd.pick(pending);
            const approver = await approverOf(target.id);
            if (!approver) return false;
            const items = await t.db
              .select({ id: requestLineItems.id, status: requestLineItems.status })
              .from(requestLineItems)
              .where(eq(requestLineItems.requestId, target.id));
            const stillIn = items.filter((i) => i.status !== 'rejected');
            const partial = stillIn.length > 1 && rnd.chance(0.6);
            const res = await decide(
              t,
              await session(approver),
              target.id,
              // A budget overrun step needs a note; any other step takes one too.
              partial
                ? {
                    decision: 'approved',
                    reason: 'One item is not needed',
                    rejectedLineItemIds: [rnd.pick(stillIn).id],
                  }
                : { decision: 'approved', reason: 'Within plan' },
            );
            expect(res.statusCode, res.body).toBe(200);
            if (partial) count('approve with line items rejected');
            return true;
          },
        ],
        [
          1,
          'reject',
          async () => {
            const pending = await inState('pending');
            if (pending.length === 0) return false;
            const target = rnd.pick(pending);
            const approver = await approverOf(target.id);
            if (!approver) return false;
            const res = await decide(t, await session(approver), target.id, {
              decision: 'rejected',
              reason: 'Not this quarter',
            });
            expect(res.statusCode, res.body).toBe(200);
            return true;
          },
        ],
        [
          1,
          'ask for information',
          async () => {
            const pending = await inState('pending');
            if (pending.length === 0) return false;
            const target = rnd.pick(pending);
            const approver = await approverOf(target.id);
            if (!approver) return false;
            const res = await decide(t, await session(approver), target.id, {
              decision: 'info_requested',
              reason: 'Which depot is this for?',
            });
            expect(res.statusCode, res.body).toBe(200);
            return true;
          },
        ],
        [
          1,
          'answer',
          async () => {
            const waiting = await inState('info_requested');
            if (waiting.length === 0) return false;
            const res = await t.app.inject({
              method: 'POST',
              url: `/api/requests/${rnd.pick(waiting).id}/respond`,
              headers: rita.headers,
              payload: { message: 'The north depot' },
            });
            expect(res.statusCode, res.body).toBe(200);
            return true;
          },
        ],
        [
          1,
          'cancel',
          async () => {
            const open = await inState('draft', 'pending', 'info_requested');
            if (open.length === 0) return false;
            const res = await t.app.inject({
              method: 'POST',
              url: `/api/requests/${rnd.pick(open).id}/cancel`,
              headers: rita.headers,
              payload: { reason: 'No longer needed' },
            });
            expect(res.statusCode, res.body).toBe(200);
            return true;
          },
        ],
        [
          2,
          'pay',
          async () => {
            const approved = await inState('approved');
            if (approved.length === 0) return false;
            const res = await t.app.inject({
              method: 'POST',
              url: `/api/requests/${rnd.pick(approved).id}/pay`,
              headers: carla.headers,
              payload: { paymentDate: '2026-03-31', paymentReference: `PAY-R${pool.length}` },
            });
            expect(res.statusCode, res.body).toBe(200);
            return true;
          },
        ],
        [
          1,
          'script: move dates',
          async () => {
            if (pool.length === 0) return false;
            // A data fix moving a request's submission and decision into other months.
            const target = rnd.pick(pool);
            await t.db.execute(sql`UPDATE spending_requests
              SET submitted_at = submitted_at - ${`${rnd.int(20, 70)} days`}::interval,
                  decided_at = decided_at - ${`${rnd.int(0, 40)} days`}::interval,
                  created_at = created_at - interval '75 days'
              WHERE id = ${target.id}`);
            return true;
          },
        ],
        [
          1,
          'script: retime a step',
          async () => {
            // A data fix moving a decided step's completion (into another month, now and then).
            const [step] = rowsOf<{ id: string }>(
              await t.db
                .execute(sql`SELECT id FROM approval_steps WHERE status IN ('approved', 'rejected') AND completed_at IS NOT NULL
                ORDER BY id OFFSET ${rnd.int(0, 20)} LIMIT 1`),
            );
            if (!step) return false;
            await t.db.execute(
              sql`UPDATE approval_steps SET completed_at = completed_at + ${`${rnd.int(1, 900)} hours`}::interval WHERE id = ${step.id}`,
            );
            return true;
          },
        ],
        [
          1,
          'script: reclassify',
          async () => {
            if (pool.length === 0) return false;
            const target = rnd.pick(pool);
            await t.db
              .execute(sql`UPDATE spending_requests SET department_id = ${rnd.chance(0.3) ? null : rnd.pick(deptIds)}, category_id = ${rnd.pick(catIds)},
              vendor_id = ${vendorIds.length && rnd.chance(0.5) ? rnd.pick(vendorIds) : null} WHERE id = ${target.id}`);
            return true;
          },
        ],
        [
          1,
          'script: attach and detach receipts',
          async () => {
            // A receipt import attaching files to decided requests, and a clean-up removing some.
            const [target] = rowsOf<{ id: string }>(
              await t.db.execute(
                sql`SELECT id FROM spending_requests WHERE status IN ('approved', 'paid', 'rejected') ORDER BY id OFFSET ${rnd.int(0, 40)} LIMIT 1`,
              ),
            );
            if (!target) return false;
            const copies = rnd.int(1, 2);
            for (let k = 0; k < copies; k++) {
              await t.db
                .execute(sql`INSERT INTO request_attachments (request_id, file_name, content_type, size, sha256, storage_key, uploaded_by_id)
                SELECT id, 'scan.pdf', 'application/pdf', 1000, repeat('0', 64), 'import/' || gen_random_uuid(), requester_id FROM spending_requests WHERE id = ${target.id}`);
            }
            const [gone] = rowsOf<{ id: string }>(
              await t.db.execute(sql`SELECT id FROM request_attachments ORDER BY id OFFSET ${rnd.int(0, 10)} LIMIT 1`),
            );
            if (gone && rnd.chance(0.6)) await t.db.execute(sql`DELETE FROM request_attachments WHERE id = ${gone.id}`);
            if (rnd.chance(0.3))
              await t.db.execute(sql`DELETE FROM request_attachments WHERE request_id = ${target.id}`);
            return true;
          },
        ],
        [
          1,
          'script: insert, change and delete',
          async () => {
            // An import script's rows, one of them corrected and one removed again.
            const [seedRow] = await t.db
              .select()
              .from(spendingRequests)
              .where(eq(spendingRequests.organizationId, w.org.ML!))
              .limit(1);
            const amount = money(rnd);
            const inserted = await t.db
              .insert(spendingRequests)
              .values(
                [0, 1].map((k) => ({
                  organizationId: seedRow!.organizationId,
                  departmentId: rnd.pick(deptIds),
                  categoryId: rnd.pick(catIds),
                  requesterId: seedRow!.requesterId,
                  title: `Imported ${k}`,
                  amount,
                  currency: seedRow!.orgCurrency,
                  amountOrg: amount,
                  orgCurrency: seedRow!.orgCurrency,
                  fxRate: '1',
                  groupFxRate: '1',
                  amountGroup: amount,
                  groupCurrency: seedRow!.groupCurrency,
                  status: 'approved' as const,
                  approvedAmount: k === 0 ? (Number(amount) / 2).toFixed(2) : null,
                  submittedAt: new Date(Date.UTC(2025, rnd.int(0, 11), rnd.int(1, 28))),
                  decidedAt: new Date(Date.UTC(2026, rnd.int(0, 2), rnd.int(1, 28))),
                })),
              )
              .returning({ id: spendingRequests.id });
            await t.db.execute(
              sql`UPDATE spending_requests SET status = 'paid', approved_amount = ${amount} WHERE id = ${inserted[0]!.id}`,
            );
            await t.db.execute(sql`DELETE FROM spending_requests WHERE id = ${inserted[1]!.id}`);
            return true;
          },
        ],
      ];
      const totalWeight = ops.reduce((s, [wgt]) => s + wgt, 0);
      let changes = 0;
      for (let attempt = 0; changes < 200 && attempt < 2000; attempt++) {
        let roll = rnd.next() * totalWeight;
        const op = ops.find(([wgt]) => (roll -= wgt) < 0) ?? ops[0]!;
        if (await op[2]()) {
          changes++;
          count(op[1]);
          if (changes % 50 === 0) await expectReconciled(`after ${changes} changes (seed ${seed})`);
        }
      }
      console.log(`spend-monthly reconcile: ${JSON.stringify(Object.fromEntries(done))}`);
      expect(changes).toBe(200);
      for (const op of ['create', 'submit', 'approve', 'pay', 'edit']) expect(done.get(op) ?? 0, op).toBeGreaterThan(0);
      await expectReconciled(`after every change (seed ${seed})`);
    },
  );

  it('is unchanged by a change whose transaction rolls back', async () => {
    const before = await stored();
    const [victim] = await t.db
      .select()
      .from(spendingRequests)
      .where(inArray(spendingRequests.status, ['approved', 'paid']))
      .limit(1);
    await expect(
      t.db.transaction(async (tx) => {
        await tx.execute(
          sql`UPDATE spending_requests SET approved_amount = coalesce(approved_amount, amount) - 1, department_id = NULL WHERE id = ${victim!.id}`,
        );
        // The change reached the aggregate inside the transaction…
        expect(await stored(tx)).not.toEqual(before);
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    // …and left with it.
    expect(await stored()).toEqual(before);
    // A refused API change (a second decision on a decided request) leaves it as it was too.
    const res = await decide(t, await session('max'), victim!.id, { decision: 'approved' });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(await stored()).toEqual(before);
  });
});
