// Saved reports of the report builder (docs/product.md §3.8 /advanced-reporting).
import { z } from 'zod';
import { addMonths } from './consolidation.ts';
import { optionalText, requiredText, uuid } from './fields.ts';
import { isoMonth } from './primitives.ts';
import { REQUEST_STATUS_VALUES } from './requests.ts';
import { ROLES } from './roles.ts';

export const REPORT_SCHEDULE_VALUES = ['none', 'daily', 'weekly', 'monthly'] as const;
export type ReportSchedule = (typeof REPORT_SCHEDULE_VALUES)[number];
export const REPORT_SCHEDULE_LABELS: Record<ReportSchedule, string> = {
  none: 'Not scheduled',
  daily: 'Daily',
  weekly: 'Weekly (Mondays)',
  monthly: 'Monthly (the 1st)',
};
/**
 * When each schedule runs (minute hour day-of-month month day-of-week), read in the time zone of
 * the report's owner: 06:00 their time every day, every Monday or on the 1st.
 */
export const REPORT_SCHEDULE_CRON: Record<Exclude<ReportSchedule, 'none'>, string> = {
  daily: '0 6 * * *',
  weekly: '0 6 * * 1',
  monthly: '0 6 1 * *',
};

/** What a report can group by. Anything else is refused at the edge (the SQL side maps each to a fixed column). */
export const REPORT_DIMENSION_VALUES = [
  'organization',
  'department',
  'category',
  'vendor',
  'requester',
  'month',
  'quarter',
  'year',
  'status',
] as const;
export type ReportDimension = (typeof REPORT_DIMENSION_VALUES)[number];
/** Quarter and year are fiscal: the one organization reported on's, else the group's (contracts' fiscal-calendar). */
export const REPORT_DIMENSION_LABELS: Record<ReportDimension, string> = {
  organization: 'Organization',
  department: 'Department',
  category: 'Category',
  vendor: 'Vendor',
  requester: 'Requester',
  month: 'Month',
  quarter: 'Fiscal quarter',
  year: 'Fiscal year',
  status: 'Status',
};
/** The dimensions that are periods: their values sort in time order. */
export const REPORT_PERIOD_DIMENSIONS: readonly ReportDimension[] = ['month', 'quarter', 'year'];

export const REPORT_MEASURE_VALUES = ['sum', 'count', 'average'] as const;
export type ReportMeasure = (typeof REPORT_MEASURE_VALUES)[number];
export const REPORT_MEASURE_LABELS: Record<ReportMeasure, string> = {
  sum: 'Total spend',
  count: 'Requests',
  average: 'Average request',
};

export const REPORT_VIEW_VALUES = ['table', 'bar', 'line'] as const;
export type ReportView = (typeof REPORT_VIEW_VALUES)[number];
export const REPORT_VIEW_LABELS: Record<ReportView, string> = { table: 'Table', bar: 'Bar chart', line: 'Line chart' };

export const REPORT_FORMAT_VALUES = ['csv', 'xlsx', 'pdf'] as const;
export type ReportFormat = (typeof REPORT_FORMAT_VALUES)[number];
export const REPORT_FORMAT_LABELS: Record<ReportFormat, string> = { csv: 'CSV', xlsx: 'Excel (XLSX)', pdf: 'PDF' };

/** A report covers at most five years: the requester dimension reads requests one by one. */
export const REPORT_MAX_MONTHS = 60;
/** Rows a run answers with at most (sorted by total spend, largest first); the totals cover all. */
export const REPORT_MAX_ROWS = 2000;

/** Months from `from` to `to`, both included. */
export function monthsInPeriod(from: string, to: string): number {
  const [fy, fm] = from.split('-').map(Number) as [number, number];
  const [ty, tm] = to.split('-').map(Number) as [number, number];
  return (ty - fy) * 12 + (tm - fm) + 1;
}

/**
 * The months a run covers: the months chosen, or for a rolling report the same number of months
 * ending in the month of `now` (UTC). The builder shows this before running, so a rolling period
 * never replaces the chosen months unseen.
 */
export function reportRunPeriod(
  filters: { from: string; to: string; rolling?: boolean },
  now: Date,
): { from: string; to: string } {
  if (!filters.rolling) return { from: filters.from, to: filters.to };
  const to = now.toISOString().slice(0, 7);
  return { from: addMonths(to, 1 - monthsInPeriod(filters.from, filters.to)), to };
}

const idList = z.array(uuid()).max(100, 'Choose at most 100').optional();
const distinct = <T>(values: readonly T[]) => new Set(values).size === values.length;

export const reportFilters = z
  .object({
    /** YYYY-MM, inclusive: the month of the final decision (spend), or of submission with monthOf. */
    from: isoMonth,
    to: isoMonth,
    monthOf: z.enum(['decided', 'submitted']).default('decided'),
    organizationIds: idList,
    departmentIds: idList,
    categoryIds: idList,
    vendorIds: idList,
    /** Defaults to spend: approved and paid. */
    statuses: z.array(z.enum(REQUEST_STATUS_VALUES)).max(REQUEST_STATUS_VALUES.length).optional(),
    /**
     * Rolling: each run keeps the period's length but ends it in the month of the run (a saved
     * "last 12 months" stays the last 12 months in every scheduled e-mail).
     */
    rolling: z.boolean().default(false),
  })
  .refine((f) => f.from <= f.to, { message: 'The period must end on or after its start', path: ['to'] })
  .refine((f) => f.from > f.to || monthsInPeriod(f.from, f.to) <= REPORT_MAX_MONTHS, {
    message: `A report covers at most ${REPORT_MAX_MONTHS} months`,
    path: ['to'],
  });
export type ReportFilters = z.infer<typeof reportFilters>;

export const reportDefinition = z.object({
  dimensions: z
    .array(z.enum(REPORT_DIMENSION_VALUES))
    .min(1, 'Choose at least one dimension')
    .max(3, 'Choose at most three dimensions')
    .refine(distinct, 'Choose each dimension once'),
  measures: z
    .array(z.enum(REPORT_MEASURE_VALUES))
    .min(1, 'Choose at least one measure')
    .refine(distinct, 'Choose each measure once'),
  filters: reportFilters,
  view: z.enum(REPORT_VIEW_VALUES).default('table'),
});
export type ReportDefinition = z.infer<typeof reportDefinition>;
export type ReportDefinitionInput = z.input<typeof reportDefinition>;

export const runReportInput = z.object({ definition: reportDefinition });
export const exportReportInput = z.object({ definition: reportDefinition, format: z.enum(REPORT_FORMAT_VALUES) });
export const reportExportQuery = z.object({ format: z.enum(REPORT_FORMAT_VALUES) });

/** One value of a dimension: its id (null for "none", e.g. a request without a vendor) and what people read. */
export const reportKey = z.object({ id: z.string().nullable(), label: z.string() });
export type ReportKey = z.infer<typeof reportKey>;

export const reportRow = z.object({
  /** One entry per chosen dimension, keyed by the dimension. */
  keys: z.partialRecord(z.enum(REPORT_DIMENSION_VALUES), reportKey),
  /** In the group currency. */
  sum: z.string(),
  count: z.number().int(),
  average: z.string(),
});
export type ReportRow = z.infer<typeof reportRow>;

export const reportResult = z.object({
  /** The months the run covered (a rolling report's, as of the run). */
  period: z.object({ from: z.string(), to: z.string() }),
  columns: z.array(z.object({ key: z.string(), label: z.string(), kind: z.enum(['dimension', 'measure']) })),
  rows: z.array(reportRow),
  totals: z.object({ sum: z.string(), count: z.number().int(), average: z.string() }),
  currency: z.string(),
  /** Whose spend the run covers: the organizations chosen, else the caller's reach ("All organizations", "Meridian Logistics"). */
  scope: z.string(),
  /** True when there were more than REPORT_MAX_ROWS rows (the largest are shown; totals cover all). */
  truncated: z.boolean(),
  /** The month (1–12) the fiscal year of the run's quarters and years starts in. */
  fiscalYearStartMonth: z.number().int(),
});
export type ReportResult = z.infer<typeof reportResult>;

const userIds = z.array(uuid()).max(100, 'Share with at most 100 people').refine(distinct, 'Each person once');
const roles = z.array(z.enum(ROLES)).max(ROLES.length).refine(distinct, 'Each role once');

export const createSavedReportInput = z.object({
  name: requiredText('Name', 120),
  description: optionalText('Description', 1000),
  definition: reportDefinition,
  sharedWithUserIds: userIds.default([]),
  sharedWithRoles: roles.default([]),
  schedule: z.enum(REPORT_SCHEDULE_VALUES).default('none'),
  scheduleFormat: z.enum(REPORT_FORMAT_VALUES).default('xlsx'),
});
export type CreateSavedReportInput = z.infer<typeof createSavedReportInput>;
export type CreateSavedReportFormInput = z.input<typeof createSavedReportInput>;

export const updateSavedReportInput = z
  .object({
    name: requiredText('Name', 120),
    description: optionalText('Description', 1000),
    definition: reportDefinition,
    sharedWithUserIds: userIds,
    sharedWithRoles: roles,
    schedule: z.enum(REPORT_SCHEDULE_VALUES),
    scheduleFormat: z.enum(REPORT_FORMAT_VALUES),
  })
  .partial();
export type UpdateSavedReportInput = z.infer<typeof updateSavedReportInput>;

export const savedReport = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  definition: reportDefinition,
  ownerId: z.string(),
  ownerName: z.string(),
  /** The caller owns it (may edit, share, schedule and delete it); others only read and run it. */
  isOwner: z.boolean(),
  sharedWithUsers: z.array(z.object({ id: z.string(), name: z.string() })),
  sharedWithRoles: z.array(z.enum(ROLES)),
  schedule: z.enum(REPORT_SCHEDULE_VALUES),
  scheduleFormat: z.enum(REPORT_FORMAT_VALUES),
  nextRunAt: z.string().nullable(),
  /** The time zone the schedule runs in: its owner's (their own, else their organization's). */
  scheduleTimeZone: z.string().optional(),
  lastSentAt: z.string().nullable(),
  version: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SavedReport = z.infer<typeof savedReport>;
export const savedReportList = z.object({ items: z.array(savedReport) });
export type SavedReportList = z.infer<typeof savedReportList>;

/** People a report can be shared with: active users who hold reports.read (search by name or e-mail). */
export const reportRecipientsQuery = z.object({ q: z.string().trim().max(100).optional() });
export const reportRecipients = z.object({
  items: z.array(
    z.object({ id: z.string(), name: z.string(), role: z.enum(ROLES), organizationName: z.string().nullable() }),
  ),
});
export type ReportRecipients = z.infer<typeof reportRecipients>;
export type ReportRecipient = ReportRecipients['items'][number];

/** What the builder's filters offer: the organizations, departments, categories and vendors in the caller's scope. */
const reportOption = z.object({ id: z.string(), name: z.string() });
export const reportOptions = z.object({
  /** Each with the month (1–12) its fiscal year starts in. */
  organizations: z.array(reportOption.extend({ fiscalYearStartMonth: z.number().int() })),
  departments: z.array(reportOption.extend({ organizationId: z.string() })),
  categories: z.array(reportOption),
  vendors: z.array(reportOption.extend({ organizationId: z.string() })),
  groupCurrency: z.string(),
  /** The fiscal calendar of a report over no one organization: the caller's own company's, or the group's for a group-wide reader. */
  fiscalYearStartMonth: z.number().int(),
});
export type ReportOptions = z.infer<typeof reportOptions>;
