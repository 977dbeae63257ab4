// Schemas for the vendors screens and API (docs/product.md §3.9 /vendor-management).
import { z } from 'zod';
import { currencyCode, exportQuery, listQuery, paginated } from './lists.ts';

export const VENDOR_STATUS_VALUES = ['pending_verification', 'active', 'blocked'] as const;
export type VendorStatus = (typeof VENDOR_STATUS_VALUES)[number];
export const vendorStatus = z.enum(VENDOR_STATUS_VALUES);

export const VENDOR_STATUS_LABELS: Record<VendorStatus, string> = {
  pending_verification: 'Pending verification',
  active: 'Active',
  blocked: 'Blocked',
};

/**
 * Status changes a vendor may make: a new vendor is verified (active) or blocked; an active
 * vendor can be blocked and a blocked one re-activated. Nothing returns to pending.
 */
export const VENDOR_TRANSITIONS: Record<VendorStatus, readonly VendorStatus[]> = {
  pending_verification: ['active', 'blocked'],
  active: ['blocked'],
  blocked: ['active'],
};

export const VENDOR_SORTS = [
  'name',
  'taxId',
  'organization',
  'currency',
  'paymentTermsDays',
  'status',
  'createdAt',
  'updatedAt',
] as const;

/** The only form a bank account number ever leaves the server in (e.g. `•••• 1234`). */
export function maskBankAccount(last4: string | null | undefined): string | null {
  return last4 ? `•••• ${last4}` : null;
}

export const vendor = z.object({
  id: z.string(),
  organizationId: z.string(),
  organizationName: z.string(),
  name: z.string(),
  taxId: z.string(),
  contactName: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  address: z.string().nullable(),
  paymentTermsDays: z.number().int(),
  currency: z.string(),
  /** `•••• 1234` or null: never the number, never the sealed value. */
  bankAccountMasked: z.string().nullable(),
  /**
   * A change of the bank account on file waiting for a second person's confirmation (the one who
   * asked cannot confirm it); until then the vendor is paid to the account above. Masked too.
   */
  pendingBankChange: z
    .object({
      bankAccountMasked: z.string(),
      requestedById: z.string().nullable(),
      requestedByName: z.string().nullable(),
      requestedAt: z.string(),
    })
    .nullable(),
  status: vendorStatus,
  intercompanyOrganizationId: z.string().nullable(),
  /** Sent back in If-Match so a save based on an older copy is refused (412). */
  version: z.number().int(),
  /**
   * Spend to date is what the vendor has been approved for (approved and paid requests, the
   * approved part of a partly approved one); the open balance is what is still owed on their
   * open payables (amount less payments). Both in `spendCurrency`, the organization's currency,
   * converted with each request's own rate.
   */
  spendToDate: z.string(),
  openBalance: z.string(),
  spendCurrency: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Vendor = z.infer<typeof vendor>;

export const vendorStatusChange = z.object({
  status: vendorStatus,
  reason: z.string().nullable(),
  at: z.string(),
  actorName: z.string().nullable(),
});

export const vendorDetail = vendor.extend({
  /** The latest audited status change with its reason (null for vendors never changed). */
  lastStatusChange: vendorStatusChange.nullable(),
});
export type VendorDetail = z.infer<typeof vendorDetail>;

export const vendorList = paginated(vendor);
export type VendorList = z.infer<typeof vendorList>;

const vendorFilters = {
  status: vendorStatus.optional(),
  organizationId: z.uuid('Not a valid organization').optional(),
  currency: currencyCode.optional(),
};
export const vendorListQuery = listQuery.extend(vendorFilters);
export type VendorListQuery = z.infer<typeof vendorListQuery>;
export const vendorExportQuery = exportQuery.extend(vendorFilters);
export type VendorExportQuery = z.infer<typeof vendorExportQuery>;

/** Spaces and dashes are formatting; what is sealed is the letters and digits (IBAN or local number). */
export const bankAccountInput = z
  .string()
  .trim()
  .transform((v) => v.replace(/[\s-]/g, '').toUpperCase())
  .pipe(z.string().regex(/^[A-Z0-9]{4,34}$/, 'Enter a bank account number or IBAN (4 to 34 letters and digits)'));

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `At most ${max} characters`)
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .optional();

const vendorFields = {
  name: z.string().trim().min(2, 'Name must be at least 2 characters').max(200, 'At most 200 characters'),
  taxId: z
    .string()
    .trim()
    .min(2, 'Tax ID must be at least 2 characters')
    .max(50, 'At most 50 characters')
    .regex(/^[A-Za-z0-9][A-Za-z0-9 ./-]*$/, 'Use letters, digits, spaces, dots, dashes or slashes'),
  contactName: optionalText(200),
  email: z
    .string()
    .trim()
    .max(254)
    .transform((v) => (v === '' ? null : v.toLowerCase()))
    .pipe(z.email('Please enter a valid email address').nullable())
    .nullable()
    .optional(),
  phone: optionalText(50),
  address: optionalText(500),
  paymentTermsDays: z.coerce
    .number({ error: 'Payment terms must be a number of days' })
    .int('Payment terms must be whole days')
    .min(0, 'Payment terms must be between 0 and 365 days')
    .max(365, 'Payment terms must be between 0 and 365 days'),
  currency: currencyCode,
  /** Write-only: sealed at rest; an empty string or null on update removes it, absent keeps it. */
  bankAccount: z.union([z.literal('').transform(() => null), z.null(), bankAccountInput]).optional(),
};

export const createVendorInput = z.object({
  organizationId: z.uuid('Choose an organization'),
  ...vendorFields,
});
export type CreateVendorInput = z.infer<typeof createVendorInput>;
export type CreateVendorForm = z.input<typeof createVendorInput>;

export const updateVendorInput = z
  .object(vendorFields)
  .partial()
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: 'Nothing to update' });
export type UpdateVendorInput = z.infer<typeof updateVendorInput>;

export const vendorStatusInput = z
  .object({
    status: vendorStatus,
    reason: z.string().trim().max(500, 'The reason must be at most 500 characters').optional(),
  })
  .refine((v) => v.status !== 'blocked' || (v.reason !== undefined && v.reason.length >= 3), {
    message: 'Give a reason for blocking (at least 3 characters)',
    path: ['reason'],
  });
export type VendorStatusInput = z.infer<typeof vendorStatusInput>;

/** Organizations the caller may keep vendors for (the form's choices). */
export const vendorOrganization = z.object({
  id: z.string(),
  name: z.string(),
  code: z.string(),
  currency: z.string(),
});
export const vendorOrganizations = z.object({ items: z.array(vendorOrganization) });
export type VendorOrganization = z.infer<typeof vendorOrganization>;
