// Vendor payables and their payments (docs/product.md §3.7 /vendor-aging-report).
import { z } from 'zod';
import { optionalText, uuid } from './fields.ts';
import { listQuery, paginated } from './lists.ts';
import { isPositive } from './money.ts';
import { isoDate, moneyAmount } from './primitives.ts';

/** The aging report's buckets, by days past due (or past the invoice date). */
export const AGING_BUCKET_VALUES = ['current', 'days_1_30', 'days_31_60', 'days_61_90', 'over_90'] as const;
export type AgingBucket = (typeof AGING_BUCKET_VALUES)[number];

export const AGING_BUCKET_LABELS: Record<AgingBucket, string> = {
  current: 'Current',
  days_1_30: '1–30 days',
  days_31_60: '31–60 days',
  days_61_90: '61–90 days',
  over_90: 'Over 90 days',
};

/**
 * The bucket of an invoice `days` past its due date (or its invoice date): not yet past it is
 * current; day 30 is still 1–30, day 31 starts 31–60, and so on; from day 91 it is over 90.
 */
export function agingBucketOf(days: number): AgingBucket {
  if (days <= 0) return 'current';
  if (days <= 30) return 'days_1_30';
  if (days <= 60) return 'days_31_60';
  if (days <= 90) return 'days_61_90';
  return 'over_90';
}

/** Which date an invoice ages from: its due date (the default) or its invoice date. */
export const AGING_BASIS_VALUES = ['due', 'invoice'] as const;
export type AgingBasis = (typeof AGING_BASIS_VALUES)[number];
export const AGING_BASIS_LABELS: Record<AgingBasis, string> = { due: 'Due date', invoice: 'Invoice date' };

export const PAYABLE_STATUS_VALUES = ['open', 'settled'] as const;
export type PayableStatus = (typeof PAYABLE_STATUS_VALUES)[number];
export const PAYABLE_STATUS_LABELS: Record<PayableStatus, string> = { open: 'Open', settled: 'Settled' };

export const payablePayment = z.object({
  id: z.string(),
  paymentDate: z.string(),
  amount: z.string(),
  reference: z.string().nullable(),
  recordedByName: z.string().nullable(),
  createdAt: z.string(),
});
export type PayablePayment = z.infer<typeof payablePayment>;

export const payable = z.object({
  id: z.string(),
  requestId: z.string(),
  requestReference: z.string(),
  requestTitle: z.string(),
  organizationId: z.string(),
  organizationName: z.string(),
  vendorId: z.string(),
  vendorName: z.string(),
  invoiceNumber: z.string().nullable(),
  invoiceDate: z.string(),
  dueDate: z.string(),
  /** The day the terms ended on when it was no business day of the organization's country, and why it moved ("Christmas Day"). */
  dueDateAdjustedFrom: z.string().nullable(),
  dueDateAdjustedReason: z.string().nullable(),
  /** The request's original currency; amounts below are in it. */
  currency: z.string(),
  amount: z.string(),
  paidAmount: z.string(),
  openAmount: z.string(),
  status: z.enum(PAYABLE_STATUS_VALUES),
  settledAt: z.string().nullable(),
  /** Sent back in If-Match when the invoice details change (412 on a stale copy). */
  version: z.number().int(),
  createdAt: z.string(),
});
export type Payable = z.infer<typeof payable>;

export const payableDetail = payable.extend({ payments: z.array(payablePayment) });
export type PayableDetail = z.infer<typeof payableDetail>;

export const PAYABLE_SORTS = ['dueDate', 'invoiceDate', 'amount', 'vendor', 'createdAt'] as const;

const payableFilters = {
  vendorId: uuid('Choose a vendor').optional(),
  organizationId: uuid('Choose an organization').optional(),
  status: z.enum(PAYABLE_STATUS_VALUES).optional(),
};
export const payableListQuery = listQuery.extend({ ...payableFilters, sort: z.enum(PAYABLE_SORTS).optional() });
export type PayableListQuery = z.infer<typeof payableListQuery>;
export const payableList = paginated(payable);
export type PayableList = z.infer<typeof payableList>;

/** Invoice details arrive when the request is approved for payment or later. */
export const updatePayableInput = z
  .object({
    invoiceNumber: optionalText('Invoice number', 60),
    invoiceDate: isoDate.optional(),
  })
  .refine((v) => v.invoiceNumber !== undefined || v.invoiceDate !== undefined, {
    message: 'Enter an invoice number or an invoice date',
  });
export type UpdatePayableInput = z.input<typeof updatePayableInput>;

export const recordPaymentInput = z.object({
  paymentDate: isoDate,
  amount: moneyAmount.refine((v) => isPositive(v), 'A payment must be more than zero'),
  reference: z.string().trim().min(2, 'Enter the payment reference').max(100, 'At most 100 characters'),
});
export type RecordPaymentInput = z.input<typeof recordPaymentInput>;

export const agingQuery = z.object({
  /** The day the report is as of (today when absent): later payments and payables do not count. */
  asOf: isoDate.optional(),
  basis: z.enum(AGING_BASIS_VALUES).default('due'),
  organizationId: uuid('Choose an organization').optional(),
});
export type AgingQuery = z.input<typeof agingQuery>;
export const agingVendorParams = z.object({ vendorId: uuid('Not a valid vendor id') });
export const agingExportQuery = agingQuery.extend({ format: z.enum(['csv', 'xlsx', 'pdf']).default('csv') });

const bucketAmounts = z.object(
  Object.fromEntries(AGING_BUCKET_VALUES.map((b) => [b, z.string()])) as Record<AgingBucket, z.ZodString>,
);
export type AgingBucketAmounts = z.infer<typeof bucketAmounts>;

export const agingInvoice = z.object({
  payableId: z.string(),
  requestId: z.string(),
  requestReference: z.string(),
  requestTitle: z.string(),
  invoiceNumber: z.string().nullable(),
  invoiceDate: z.string(),
  dueDate: z.string(),
  /** The day the terms ended on when it was no business day of the organization's country, and why it moved ("Christmas Day"). */
  dueDateAdjustedFrom: z.string().nullable(),
  dueDateAdjustedReason: z.string().nullable(),
  /** Days past the basis date as of the report day (negative: not yet there). */
  daysPastDue: z.number().int(),
  bucket: z.enum(AGING_BUCKET_VALUES),
  currency: z.string(),
  amount: z.string(),
  /** Paid on or before the as-of day. */
  paidAmount: z.string(),
  openAmount: z.string(),
  /** 1 unit of `currency` in the group currency, at the as-of month's average rate. */
  rate: z.string(),
  openAmountGroup: z.string(),
  /** Whether the caller may record a payment against it. */
  canPay: z.boolean(),
});
export type AgingInvoice = z.infer<typeof agingInvoice>;

export const agingVendorRow = z.object({
  vendorId: z.string(),
  vendorName: z.string(),
  organizationId: z.string(),
  organizationName: z.string(),
  invoiceCount: z.number().int(),
  buckets: bucketAmounts,
  total: z.string(),
});
export type AgingVendorRow = z.infer<typeof agingVendorRow>;

const agingHeader = {
  asOf: z.string(),
  basis: z.enum(AGING_BASIS_VALUES),
  groupCurrency: z.string(),
  /** The FX month the rates are from (YYYY-MM). */
  ratePeriod: z.string(),
};

export const agingReport = z.object({
  ...agingHeader,
  /** The organizations the caller may filter by (their scope). */
  organizations: z.array(z.object({ id: z.string(), name: z.string() })),
  vendors: z.array(agingVendorRow),
  totals: z.object({ buckets: bucketAmounts, total: z.string(), invoiceCount: z.number().int() }),
});
export type AgingReport = z.infer<typeof agingReport>;

export const agingVendorDetail = z.object({
  ...agingHeader,
  vendor: agingVendorRow,
  invoices: z.array(agingInvoice),
});
export type AgingVendorDetail = z.infer<typeof agingVendorDetail>;
