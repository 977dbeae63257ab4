import { and, gte, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { budgetLines, departments, organizations, spendingRequests, users } from '../schema/index.ts';

/**
 * Budget lines for each organization's current fiscal year (Meridian Foods' runs from April),
 * sized from the seeded request history:
 * a yearly line per organization, quarterly lines per department, monthly lines for the busiest
 * categories. Past periods land between ~60% and ~95% used, one monthly line over 100%; lines
 * covering today keep a wide headroom so everyday requests fit, except Meridian Logistics ·
 * Operations, whose current quarter has $40,000 left: a ~$50,000 request there goes over budget.
 * Money in integer cents (BigInt), in each organization's currency.
 */

const OPS_HEADROOM = 4_000_000n; // $40,000 in cents
const MIN_HEADROOM = 6_000_000n; // 60,000 in the organization's currency
const AED_MIN_HEADROOM = 25_000_000n;

const cents = (v: string | null | undefined): bigint => {
  if (!v) return 0n;
  const [i, f = ''] = v.split('.');
  const neg = i!.startsWith('-');
  const abs = BigInt(i!.replace('-', '')) * 100n + BigInt((f + '00').slice(0, 2));
  return neg ? -abs : abs;
};
const money = (c: bigint) => `${c / 100n}.${String(c % 100n).padStart(2, '0')}`;
/** consumed / pct, rounded up to a step (cents). */
const sized = (consumed: bigint, pctTimes10: bigint, step: bigint): bigint => {
  const raw = (consumed * 1000n + pctTimes10 - 1n) / pctTimes10;
  return ((raw + step - 1n) / step) * step;
};
const iso = (d: Date) => d.toISOString().slice(0, 10);
// Months are counted as year × 12 + month (0-based), so a fiscal year may cross a calendar year.
const first = (index: number) => iso(new Date(Date.UTC(Math.floor(index / 12), index % 12, 1)));
const last = (index: number) => iso(new Date(Date.UTC(Math.floor(index / 12), (index % 12) + 1, 0)));

export async function seedDemoBudgets(tx: Db, now: Date): Promise<void> {
  const nowIndex = now.getUTCFullYear() * 12 + now.getUTCMonth();
  const orgs = await tx
    .select({
      id: organizations.id,
      code: organizations.code,
      currency: organizations.currency,
      fiscalYearStartMonth: organizations.fiscalYearStartMonth,
    })
    .from(organizations);
  const fiscalStartOf = (startMonth: number) => nowIndex - ((now.getUTCMonth() + 1 - startMonth + 12) % 12);
  const earliest = Math.min(...orgs.map((o) => fiscalStartOf(o.fiscalYearStartMonth)), nowIndex);
  const depts = await tx
    .select({ id: departments.id, code: departments.code, organizationId: departments.organizationId })
    .from(departments);
  const [carla] = await tx
    .select({ id: users.id })
    .from(users)
    .where(sql`${users.username} = 'carla'`);

  const spend = await tx
    .select({
      organizationId: spendingRequests.organizationId,
      departmentId: spendingRequests.departmentId,
      categoryId: spendingRequests.categoryId,
      month: sql<number>`(extract(year from ${spendingRequests.submittedAt} AT TIME ZONE 'UTC') * 12 + extract(month from ${spendingRequests.submittedAt} AT TIME ZONE 'UTC') - 1)::int`,
      value: sql<string>`sum(CASE WHEN ${spendingRequests.status} IN ('approved','paid') AND ${spendingRequests.approvedAmount} IS NOT NULL AND ${spendingRequests.fxRate} IS NOT NULL
        THEN round(${spendingRequests.approvedAmount} * ${spendingRequests.fxRate}, 2) ELSE ${spendingRequests.amountOrg} END)::text`,
    })
    .from(spendingRequests)
    .where(
      and(
        inArray(spendingRequests.status, ['pending', 'info_requested', 'approved', 'paid']),
        isNotNull(spendingRequests.amountOrg),
        gte(spendingRequests.submittedAt, new Date(Date.UTC(Math.floor(earliest / 12), earliest % 12, 1))),
        sql`${spendingRequests.submittedAt} <= ${now}`,
      ),
    )
    .groupBy(spendingRequests.organizationId, spendingRequests.departmentId, spendingRequests.categoryId, sql`4`);
  const rows = spend.map((s) => ({ ...s, month: Number(s.month), value: cents(s.value) }));
  const sum = (pred: (r: (typeof rows)[number]) => boolean) => rows.filter(pred).reduce((a, r) => a + r.value, 0n);

  type Line = typeof budgetLines.$inferInsert;
  const lines: Line[] = [];
  const add = (l: Omit<Line, 'thresholds' | 'crossedThresholds'>, consumed: bigint) => {
    const amount = cents(String(l.amount));
    const pct = amount === 0n ? 0n : (consumed * 100n) / amount;
    lines.push({
      ...l,
      thresholds: [80, 100],
      crossedThresholds: [80, 100].filter((t) => pct >= BigInt(t)),
      createdAt: now,
      updatedAt: now,
    });
  };
  const current = (headroomFloor: bigint, consumed: bigint, pct: bigint, step: bigint) => {
    const byPct = sized(consumed, pct, step);
    const floor = ((consumed + headroomFloor + step - 1n) / step) * step;
    return byPct > floor ? byPct : floor;
  };

  let overDone = false;
  for (const [oi, org] of orgs.entries()) {
    const floor = org.currency === 'AED' ? AED_MIN_HEADROOM : MIN_HEADROOM;
    const start = fiscalStartOf(org.fiscalYearStartMonth);
    const quarter = Math.floor((nowIndex - start) / 3);
    const inYear = (r: (typeof rows)[number]) => r.organizationId === org.id && r.month >= start;
    // Yearly line: 55–78% used so far.
    const yearUsed = sum(inYear);
    const yearPct = [620n, 780n, 550n, 700n, 600n][oi % 5]!;
    add(
      {
        organizationId: org.id,
        periodType: 'year',
        periodStart: first(start),
        periodEnd: last(start + 11),
        currency: org.currency,
        amount: money(current(floor * 3n, yearUsed, yearPct, 1_000_000n)),
        ownerIds: org.code === 'MG' && carla ? [carla.id] : [],
        notes: 'Annual operating budget',
      },
      yearUsed,
    );
    // Quarterly department lines for each quarter so far.
    for (const dept of depts.filter((d) => d.organizationId === org.id)) {
      const isOps = org.code === 'ML' && dept.code === 'ML-OPS';
      for (let q = 0; q <= quarter; q++) {
        const used = sum((r) => inYear(r) && r.departmentId === dept.id && Math.floor((r.month - start) / 3) === q);
        if (used === 0n && !isOps) continue;
        const pct = [650n, 820n, 740n, 900n, 560n][(q + dept.code.length) % 5]!;
        const step = 50_000n;
        const amount =
          q === quarter
            ? isOps
              ? ((used + OPS_HEADROOM + 49_999n) / 50_000n) * 50_000n
              : current(floor, used, pct, step)
            : sized(used, pct, step);
        add(
          {
            organizationId: org.id,
            departmentId: dept.id,
            periodType: 'quarter',
            periodStart: first(start + q * 3),
            periodEnd: last(start + q * 3 + 2),
            currency: org.currency,
            amount: money(amount),
            ownerIds: [],
            notes: isOps && q === quarter ? 'Depot operations; large purchases need an overrun approval' : null,
          },
          used,
        );
      }
    }
    // Monthly lines for the organization's two busiest categories of the year.
    const byCat = new Map<string, bigint>();
    for (const r of rows)
      if (inYear(r) && r.categoryId) byCat.set(r.categoryId, (byCat.get(r.categoryId) ?? 0n) + r.value);
    const top = [...byCat.entries()].sort((a, b) => (b[1] > a[1] ? 1 : b[1] < a[1] ? -1 : 0)).slice(0, 2);
    for (const [ci, [categoryId]] of top.entries()) {
      for (let m = Math.max(start, nowIndex - 3); m <= nowIndex; m++) {
        const used = sum((r) => r.organizationId === org.id && r.categoryId === categoryId && r.month === m);
        if (used === 0n && m !== nowIndex) continue;
        let pct = [700n, 830n, 910n, 640n][(m + ci) % 4]!;
        // One past line over budget: spending ran 8% past it.
        if (!overDone && m < nowIndex && used > 0n && org.code !== 'ML') {
          pct = 1080n;
          overDone = true;
        }
        const amount = m === nowIndex ? current(floor, used, pct, 10_000n) : sized(used, pct, 10_000n);
        add(
          {
            organizationId: org.id,
            categoryId,
            periodType: 'month',
            periodStart: first(m),
            periodEnd: last(m),
            currency: org.currency,
            amount: money(amount),
            ownerIds: [],
            notes: null,
          },
          used,
        );
      }
    }
  }
  if (lines.length > 0) await tx.insert(budgetLines).values(lines);
}
