// The aging report: what was open on a day, per vendor, in the five buckets, each invoice in its
// own currency and in the group currency at the as-of month's average rate.
import {
  AGING_BASIS_LABELS,
  AGING_BUCKET_LABELS,
  AGING_BUCKET_VALUES,
  agingBucketOf,
  requestReference,
  type AgingBasis,
  type AgingBucketAmounts,
  type AgingInvoice,
  type AgingReport,
  type AgingVendorDetail,
  type AgingVendorRow,
} from '@outlay/contracts';
import { addMoney, convertMoney, subtractMoney, toAmountString } from '@outlay/contracts/money';
import { organizations } from '@outlay/db';
import { asc, eq } from 'drizzle-orm';
import { AppError } from '../../lib/app-error.ts';
import { requireAuth, type Ctx } from '../../lib/context.ts';
import { organizationScope, type ExportAbout, type ExportColumn } from '../../lib/export.ts';
import { convert, groupCurrency } from '../../lib/fx.ts';
import { organizationInScope, scopeCondition } from '../../lib/scope.ts';
import * as repo from './payables.repository.ts';
import { dayOf, daysBetween } from './payables.payments.ts';
import { MESSAGES } from './payables.messages.ts';

export interface AgingParams {
  asOf?: string;
  basis: AgingBasis;
  organizationId?: string;
}

const zeroBuckets = (): AgingBucketAmounts =>
  Object.fromEntries(AGING_BUCKET_VALUES.map((b) => [b, '0.00'])) as AgingBucketAmounts;

/**
 * One rate per currency for the report: the same rounding `FxCache` and `convert` use. A day
 * past the newest rates takes the newest month there is, and the report says which.
 */
function rateBook(ctx: Ctx, to: string, asOf: string) {
  const rates = new Map<string, Promise<string>>();
  let period = asOf.slice(0, 7);
  let seen = false;
  const rateOf = (from: string): Promise<string> => {
    let rate = rates.get(from);
    if (!rate) {
      rate = convert(ctx.db, { amount: '1', from, to, date: asOf }).then((c) => {
        if (c.period && (!seen || c.period > period)) [period, seen] = [c.period, true];
        return c.rate;
      });
      rates.set(from, rate);
    }
    return rate;
  };
  return { rateOf, period: () => period };
}

async function invoicesOf(ctx: Ctx, params: AgingParams & { vendorId?: string }) {
  const auth = requireAuth(ctx);
  const scope = scopeCondition(auth, 'reports.read', repo.payableScopeColumns);
  const asOf = params.asOf ?? dayOf(ctx.now);
  const currency = await groupCurrency(ctx.db);
  const rows = await repo.agingSource(ctx.db, {
    scope,
    asOf,
    organizationId: params.organizationId,
    vendorId: params.vendorId,
  });
  const { rateOf, period } = rateBook(ctx, currency, asOf);
  const invoices = await Promise.all(
    rows.map(
      async (
        row,
      ): Promise<
        AgingInvoice & { vendorId: string; vendorName: string; organizationId: string; organizationName: string }
      > => {
        const days = daysBetween(params.basis === 'invoice' ? row.invoiceDate : row.dueDate, asOf);
        const open = toAmountString(subtractMoney(row.amount, row.paidAsOf));
        const rate = await rateOf(row.currency);
        return {
          payableId: row.id,
          requestId: row.requestId,
          requestReference: requestReference(row.requestSeq),
          requestTitle: row.requestTitle,
          invoiceNumber: row.invoiceNumber,
          invoiceDate: row.invoiceDate,
          dueDate: row.dueDate,
          dueDateAdjustedFrom: row.dueDateAdjustedFrom,
          dueDateAdjustedReason: row.dueDateAdjustedReason,
          daysPastDue: days,
          bucket: agingBucketOf(days),
          currency: row.currency,
          amount: toAmountString(row.amount),
          paidAmount: toAmountString(row.paidAsOf),
          openAmount: open,
          rate,
          openAmountGroup: convertMoney(open, rate, currency).amount,
          canPay: organizationInScope(auth, 'payables.manage', row.organizationId),
          vendorId: row.vendorId,
          vendorName: row.vendorName,
          organizationId: row.organizationId,
          organizationName: row.organizationName,
        };
      },
    ),
  );
  return { asOf, basis: params.basis, groupCurrency: currency, ratePeriod: period(), invoices };
}

type Invoice = Awaited<ReturnType<typeof invoicesOf>>['invoices'][number];

function vendorRows(invoices: Invoice[]): AgingVendorRow[] {
  const byVendor = new Map<string, AgingVendorRow>();
  for (const inv of invoices) {
    let row = byVendor.get(inv.vendorId);
    if (!row) {
      row = {
        vendorId: inv.vendorId,
        vendorName: inv.vendorName,
        organizationId: inv.organizationId,
        organizationName: inv.organizationName,
        invoiceCount: 0,
        buckets: zeroBuckets(),
        total: '0.00',
      };
      byVendor.set(inv.vendorId, row);
    }
    row.invoiceCount += 1;
    row.buckets[inv.bucket] = toAmountString(addMoney(row.buckets[inv.bucket], inv.openAmountGroup));
    row.total = toAmountString(addMoney(row.total, inv.openAmountGroup));
  }
  return [...byVendor.values()].sort(
    (a, b) => a.vendorName.localeCompare(b.vendorName, 'en') || a.vendorId.localeCompare(b.vendorId),
  );
}

export async function agingReport(ctx: Ctx, params: AgingParams): Promise<AgingReport> {
  const { invoices, ...header } = await invoicesOf(ctx, params);
  const vendors = vendorRows(invoices);
  const buckets = zeroBuckets();
  // Totals add the vendor rows, so the screen's columns and its totals row agree to the cent.
  for (const v of vendors)
    for (const b of AGING_BUCKET_VALUES) buckets[b] = toAmountString(addMoney(buckets[b], v.buckets[b]));
  const auth = requireAuth(ctx);
  const orgs = await ctx.db
    .select({ id: organizations.id, name: organizations.name })
    .from(organizations)
    .where(scopeCondition(auth, 'reports.read', { organizationId: organizations.id }))
    .orderBy(asc(organizations.name));
  return {
    ...header,
    organizations: orgs,
    vendors,
    totals: {
      buckets,
      total: toAmountString(addMoney('0', ...vendors.map((v) => v.total))),
      invoiceCount: invoices.length,
    },
  };
}

export async function agingVendor(ctx: Ctx, vendorId: string, params: AgingParams): Promise<AgingVendorDetail> {
  const { invoices, ...header } = await invoicesOf(ctx, { ...params, vendorId });
  const [vendor] = vendorRows(invoices);
  if (!vendor)
    throw new AppError('NOT_FOUND', {
      message: `${MESSAGES.vendorNotFound}, or nothing of theirs was open on this day`,
    });
  return {
    ...header,
    vendor,
    invoices: invoices.map(
      ({ vendorId: _v, vendorName: _n, organizationId: _o, organizationName: _on, ...inv }) => inv,
    ),
  };
}

export async function organizationName(ctx: Ctx, id: string | undefined): Promise<string | null> {
  if (!id) return null;
  const [row] = await ctx.db.select({ name: organizations.name }).from(organizations).where(eq(organizations.id, id));
  return row?.name ?? null;
}

export type AgingExportRow = AgingVendorRow & { currency: string };

/** What an export of the report covers: its as-of day, whose payables and the group currency. */
export function agingAbout(report: AgingReport, organizationId: string | undefined): ExportAbout {
  return {
    title: `Vendor aging (${report.basis === 'due' ? 'by due date' : 'by invoice date'})`,
    asOf: report.asOf,
    scope: organizationScope(report.organizations, organizationId),
    currency: report.groupCurrency,
  };
}

/** Machine-readable figures: decimal strings in the group currency, one row per vendor and a total row. */
export function exportColumns(report: AgingReport): ExportColumn<AgingExportRow>[] {
  return [
    { header: 'Vendor', value: (r) => r.vendorName },
    { header: 'Organization', value: (r) => r.organizationName },
    { header: 'Open invoices', value: (r) => r.invoiceCount, type: 'number' },
    ...AGING_BUCKET_VALUES.map((b) => ({
      header: AGING_BUCKET_LABELS[b],
      value: (r: AgingExportRow) => r.buckets[b],
      type: 'money' as const,
      currency: (r: AgingExportRow) => r.currency,
    })),
    { header: 'Total', value: (r) => r.total, type: 'money', currency: (r) => r.currency },
    { header: 'Currency', value: (r) => r.currency },
    { header: 'As of', value: () => report.asOf, type: 'date' },
    { header: 'Aged by', value: () => AGING_BASIS_LABELS[report.basis] },
  ];
}

export function exportRows(report: AgingReport): AgingExportRow[] {
  return [
    ...report.vendors.map((v) => ({ ...v, currency: report.groupCurrency })),
    {
      vendorId: '',
      vendorName: 'Total',
      organizationId: '',
      organizationName: '',
      invoiceCount: report.totals.invoiceCount,
      buckets: report.totals.buckets,
      total: report.totals.total,
      currency: report.groupCurrency,
    },
  ];
}
