// Running a report definition: the spend aggregate (or, for the requester dimension, requests
// summed per requester) within the reader's scope, grouped by the chosen dimensions, each group
// and the total put into the group currency by the one spend rule (lib/spend.ts `spendIn`: each
// month at its average rate, rounded once). The total is the rule over every row, so every
// grouping of the same filter has the same total, which the dashboard and the Copilot show too.
import {
  REPORT_DIMENSION_LABELS,
  REPORT_MAX_ROWS,
  REPORT_MEASURE_LABELS,
  REPORT_PERIOD_DIMENSIONS,
  REQUEST_STATUS_LABELS,
  reportRunPeriod,
  type ReportDefinition,
  type ReportDimension,
  type ReportKey,
  type ReportResult,
  type ReportRow,
  type RequestStatus,
} from '@outlay/contracts';
import { compareMoney, parseMoney, roundToCurrency } from '@outlay/contracts/money';
import { serverFormat } from '@outlay/contracts/format';
import { fiscalPeriodKey, fiscalPeriodLabel } from '@outlay/contracts/fiscal-calendar';
import type { Db } from '@outlay/db';
import type { AuthInfo } from '../../lib/context.ts';
import { fiscalCalendars } from '../../lib/fiscal-calendars.ts';
import { FxCache, groupCurrency } from '../../lib/fx.ts';
import { scopeCondition, scopeOf } from '../../lib/scope.ts';
import { spendIn, spendInBy, spendRows, spendScopeColumns, type SpendFilter } from '../../lib/spend.ts';
import * as repo from './reports.repository.ts';

const PERMISSION = 'reports.read' as const;

/** The fields of an input row each dimension groups on (a fixed map: nothing from input names a column). */
interface KeyedRow {
  organizationId: string;
  departmentId: string | null;
  categoryId: string | null;
  vendorId: string | null;
  requesterId?: string | null;
  month: string;
  status: RequestStatus;
  orgCurrency: string;
  requestCount: number;
  amountOrg: string;
}

/** What each dimension groups a row on; quarters and years in the run's fiscal calendar (`fiscalStart`). */
function keyOf(dimension: ReportDimension, row: KeyedRow, fiscalStart: number): string | null {
  switch (dimension) {
    case 'organization':
      return row.organizationId;
    case 'department':
      return row.departmentId;
    case 'category':
      return row.categoryId;
    case 'vendor':
      return row.vendorId;
    case 'requester':
      return row.requesterId ?? null;
    case 'month':
      return row.month;
    case 'quarter':
    case 'year':
      return fiscalPeriodKey(dimension, row.month, fiscalStart);
    case 'status':
      return row.status;
  }
}

const NONE_LABEL: Record<ReportDimension, string> = {
  organization: '(no organization)',
  department: '(no department)',
  category: '(no category)',
  vendor: '(no vendor)',
  requester: '(unknown)',
  month: '(no month)',
  quarter: '(no quarter)',
  year: '(no year)',
  status: '(no status)',
};

/** The months a run covers (contracts' `reportRunPeriod`, which the builder shows too). */
export function periodOf(def: ReportDefinition, now: Date): { from: string; to: string } {
  return reportRunPeriod(def.filters, now);
}

function filterOf(def: ReportDefinition, period: { from: string; to: string }): SpendFilter {
  const f = def.filters;
  return {
    from: period.from,
    to: period.to,
    monthOf: f.monthOf,
    statuses: f.statuses?.length ? f.statuses : undefined,
    organizationIds: f.organizationIds,
    departmentIds: f.departmentIds,
    categoryIds: f.categoryIds,
    vendorIds: f.vendorIds,
  };
}

function average(sum: string, count: number, currency: string): string {
  return count > 0 ? roundToCurrency(parseMoney(sum).div(count), currency) : roundToCurrency('0', currency);
}

async function labelsFor(
  db: Db,
  dimension: ReportDimension,
  ids: string[],
  periodLabels: Map<string, string>,
): Promise<Map<string, string>> {
  switch (dimension) {
    case 'organization':
    case 'department':
    case 'category':
    case 'vendor':
    case 'requester':
      return repo.namesOf(db, dimension, ids);
    case 'month':
      return new Map(ids.map((m) => [m, serverFormat.month(m)]));
    case 'quarter':
    case 'year':
      return new Map(ids.map((k) => [k, periodLabels.get(k) ?? k]));
    case 'status':
      return new Map(ids.map((s) => [s, REQUEST_STATUS_LABELS[s as RequestStatus] ?? s]));
  }
}

/** Whose spend a run covers, as its exports name it: the organizations chosen, else the caller's reach. */
async function scopeOfRun(db: Db, auth: AuthInfo, def: ReportDefinition): Promise<string> {
  const chosen = def.filters.organizationIds ?? [];
  if (chosen.length > 0)
    return [...(await repo.namesOf(db, 'organization', chosen)).values()]
      .sort((a, b) => a.localeCompare(b, 'en'))
      .join(', ');
  if (scopeOf(auth, PERMISSION) === 'group') return 'All organizations';
  const own = auth.organizationId
    ? (await repo.namesOf(db, 'organization', [auth.organizationId])).get(auth.organizationId)
    : undefined;
  return own ?? 'Your organization';
}

/**
 * The fiscal calendar a run's quarters and years follow: the one organization chosen, else the
 * caller's own when they see only it, else the group's.
 */
export async function fiscalStartOfRun(
  db: Db,
  auth: AuthInfo,
  organizationIds: readonly string[] = [],
): Promise<number> {
  const calendars = await fiscalCalendars(db);
  if (organizationIds.length === 1) return calendars.of(organizationIds[0]);
  if (organizationIds.length === 0 && scopeOf(auth, PERMISSION) !== 'group') return calendars.of(auth.organizationId);
  return calendars.group;
}

/** Runs a definition with `auth`'s scope for reports.read (a scheduled run passes its owner's). */
export async function runReport(db: Db, auth: AuthInfo, def: ReportDefinition, now: Date): Promise<ReportResult> {
  const period = periodOf(def, now);
  const fiscalStart = await fiscalStartOfRun(db, auth, def.filters.organizationIds);
  const filter = filterOf(def, period);
  const currency = await groupCurrency(db);
  const fx = new FxCache(db);
  const rows: KeyedRow[] = def.dimensions.includes('requester')
    ? await repo.requesterRows(db, scopeCondition(auth, PERMISSION, repo.requestScopeColumns), filter)
    : await spendRows(db, scopeCondition(auth, PERMISSION, spendScopeColumns), filter);

  const keysOf = new Map<string, (string | null)[]>();
  // A fiscal period's label, from any month in it.
  const periodLabels = new Map<string, string>();
  const figures = await spendInBy(fx, rows, currency, (row) => {
    const keys = def.dimensions.map((d) => keyOf(d, row, fiscalStart));
    def.dimensions.forEach((d, i) => {
      if ((d === 'quarter' || d === 'year') && !periodLabels.has(keys[i]!))
        periodLabels.set(keys[i]!, fiscalPeriodLabel(d, row.month, fiscalStart));
    });
    const id = JSON.stringify(keys);
    if (!keysOf.has(id)) keysOf.set(id, keys);
    return id;
  });
  let grouped = [...figures].map(([id, g]) => ({ keys: keysOf.get(id)!, sum: g.amount, count: g.requestCount }));
  const total = await spendIn(fx, rows, currency);
  const totalSum = total.amount;
  const totalCount = total.requestCount;
  const truncated = grouped.length > REPORT_MAX_ROWS;
  if (truncated) grouped = grouped.sort((a, b) => compareMoney(b.sum, a.sum)).slice(0, REPORT_MAX_ROWS);

  const labels = new Map<ReportDimension, Map<string, string>>();
  await Promise.all(
    def.dimensions.map(async (d, i) => {
      const ids = [...new Set(grouped.map((g) => g.keys[i]).filter((k): k is string => k !== null))];
      labels.set(d, await labelsFor(db, d, ids, periodLabels));
    }),
  );

  const out: ReportRow[] = grouped.map((g) => {
    const keys: Partial<Record<ReportDimension, ReportKey>> = {};
    def.dimensions.forEach((d, i) => {
      const id = g.keys[i] ?? null;
      keys[d] = { id, label: id === null ? NONE_LABEL[d] : (labels.get(d)?.get(id) ?? id) };
    });
    return { keys, sum: g.sum, count: g.count, average: average(g.sum, g.count, currency) };
  });
  // Periods in time order; everything else by what people read.
  out.sort((a, b) => {
    for (const d of def.dimensions) {
      const ka = a.keys[d]!;
      const kb = b.keys[d]!;
      const c = REPORT_PERIOD_DIMENSIONS.includes(d)
        ? (ka.id ?? '').localeCompare(kb.id ?? '')
        : ka.label.localeCompare(kb.label, 'en');
      if (c !== 0) return c;
    }
    return 0;
  });

  return {
    period,
    scope: await scopeOfRun(db, auth, def),
    columns: [
      ...def.dimensions.map((d) => ({ key: d, label: REPORT_DIMENSION_LABELS[d], kind: 'dimension' as const })),
      ...def.measures.map((m) => ({
        key: m,
        label: m === 'sum' || m === 'average' ? `${REPORT_MEASURE_LABELS[m]} (${currency})` : REPORT_MEASURE_LABELS[m],
        kind: 'measure' as const,
      })),
    ],
    rows: out,
    totals: { sum: totalSum, count: totalCount, average: average(totalSum, totalCount, currency) },
    currency,
    truncated,
    fiscalYearStartMonth: fiscalStart,
  };
}
