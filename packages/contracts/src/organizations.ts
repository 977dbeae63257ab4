// Schemas for the organizations screens and API (issue 4): organizations and their hierarchy,
// departments, categories, FX rates and intercompany links (PRODUCT.md §3 "Organization and people").
import { z } from 'zod';
import { currencyCode, exportQuery, listQuery, moneyAmount, paginated } from './lists.ts';

const uuid = (message = 'Not a valid id') => z.uuid(message);
/** List filters arrive as strings; an "active" filter is `true` or `false`. */
const activeFilter = z.enum(['true', 'false']).optional();
const requiredText = (label: string, max: number) =>
  z
    .string()
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);
const optionalText = (label: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .nullable()
    .optional()
    .transform((v) => (v === '' ? null : v));
const codeField = (label: string) =>
  z
    .string()
    .trim()
    .min(1, `${label} is required`)
    .max(20, `${label} must be at most 20 characters`)
    .regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/, `${label} may contain only letters, digits, "-" and "_"`)
    .transform((v) => v.toUpperCase());
/** A currency code, accepted in any case ("eur" → "EUR"). */
const currencyField = z.preprocess((v) => (typeof v === 'string' ? v.trim().toUpperCase() : v), currencyCode);
/** A non-negative amount (limits, thresholds): a decimal string with at most two decimals. */
export const nonNegativeAmount = moneyAmount.refine((v) => !v.startsWith('-'), 'The amount cannot be negative');
/** An optional limit or threshold: an empty field means none (null). */
export const optionalAmount = z
  .preprocess((v) => (typeof v === 'string' && v.trim() === '' ? null : v), nonNegativeAmount.nullable())
  .optional();

// ---------------------------------------------------------------------------------------------
// Organizations
// ---------------------------------------------------------------------------------------------
export const ORGANIZATION_KINDS = ['group', 'subsidiary'] as const;
export type OrganizationKind = (typeof ORGANIZATION_KINDS)[number];

export const organizationSettings = z.object({
  approvalThreshold: optionalAmount,
  defaultWorkflowId: z.preprocess((v) => (v === '' ? null : v), uuid('Not a valid workflow id').nullable()).optional(),
});
export type OrganizationSettings = z.output<typeof organizationSettings>;

const fiscalYearStartMonth = z.coerce
  .number({ message: 'Fiscal year start must be a month from 1 to 12' })
  .int('Fiscal year start must be a month from 1 to 12')
  .min(1, 'Fiscal year start must be a month from 1 to 12')
  .max(12, 'Fiscal year start must be a month from 1 to 12');

export const organization = z.object({
  id: z.string(),
  name: z.string(),
  code: z.string(),
  kind: z.enum(ORGANIZATION_KINDS),
  parentId: z.string().nullable(),
  parentName: z.string().nullable(),
  currency: z.string(),
  active: z.boolean(),
  address: z.string().nullable(),
  taxId: z.string().nullable(),
  fiscalYearStartMonth: z.number().int(),
  settings: z.object({ approvalThreshold: z.string().nullable(), defaultWorkflowId: z.string().nullable() }),
  departmentCount: z.number().int(),
  /** Sent back in If-Match so a save based on an older copy is refused (412). */
  version: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Organization = z.infer<typeof organization>;

export const organizationListQuery = listQuery.extend({
  kind: z.enum(ORGANIZATION_KINDS).optional(),
  active: activeFilter,
});
export type OrganizationListQuery = z.infer<typeof organizationListQuery>;
export const organizationExportQuery = exportQuery.extend({
  kind: z.enum(ORGANIZATION_KINDS).optional(),
  active: activeFilter,
});
export type OrganizationExportQuery = z.infer<typeof organizationExportQuery>;
export const organizationList = paginated(organization);

export const createOrganizationInput = z.object({
  name: requiredText('Name', 120),
  code: codeField('Code'),
  currency: currencyField,
  address: optionalText('Address', 300),
  taxId: optionalText('Tax id', 60),
  fiscalYearStartMonth: fiscalYearStartMonth.default(1),
  /** The parent company; the group when omitted. */
  parentId: uuid('Not a valid parent organization').nullable().optional(),
  active: z.boolean().default(true),
  settings: organizationSettings.optional(),
});
export type CreateOrganizationInput = z.input<typeof createOrganizationInput>;
/** What the API receives after validation. */
export type CreateOrganizationValues = z.output<typeof createOrganizationInput>;

export const updateOrganizationInput = z
  .object({
    name: requiredText('Name', 120),
    code: codeField('Code'),
    currency: currencyField,
    address: optionalText('Address', 300),
    taxId: optionalText('Tax id', 60),
    fiscalYearStartMonth,
    active: z.boolean(),
    settings: organizationSettings,
  })
  .partial()
  .refine((v) => Object.values(v).some((x) => x !== undefined), 'Nothing to change');
export type UpdateOrganizationInput = z.input<typeof updateOrganizationInput>;
/** What the API receives after validation. */
export type UpdateOrganizationValues = z.output<typeof updateOrganizationInput>;

export const moveOrganizationInput = z.object({ parentId: uuid('Choose the new parent organization') });
export type MoveOrganizationInput = z.infer<typeof moveOrganizationInput>;

export interface OrganizationTreeNode {
  id: string;
  name: string;
  code: string;
  kind: OrganizationKind;
  currency: string;
  active: boolean;
  children: OrganizationTreeNode[];
}
export const organizationTreeNode: z.ZodType<OrganizationTreeNode> = z.lazy(() =>
  z.object({
    id: z.string(),
    name: z.string(),
    code: z.string(),
    kind: z.enum(ORGANIZATION_KINDS),
    currency: z.string(),
    active: z.boolean(),
    children: z.array(organizationTreeNode),
  }),
);
export const organizationTree = z.object({ roots: z.array(organizationTreeNode) });
export type OrganizationTree = z.infer<typeof organizationTree>;

/** Active people of one organization (the department-head picker). */
export const organizationMember = z.object({ id: z.string(), name: z.string(), username: z.string(), departmentId: z.string().nullable() });
export type OrganizationMember = z.infer<typeof organizationMember>;
export const organizationMembers = z.object({ items: z.array(organizationMember) });

// ---------------------------------------------------------------------------------------------
// Intercompany links: vendors that are other companies of the group
// ---------------------------------------------------------------------------------------------
export const intercompanyLink = z.object({
  vendorId: z.string(),
  vendorName: z.string(),
  vendorTaxId: z.string(),
  /** The organization that buys from the vendor. */
  organizationId: z.string(),
  organizationName: z.string(),
  /** The group company the vendor is. */
  intercompanyOrganizationId: z.string(),
  intercompanyOrganizationName: z.string(),
});
export type IntercompanyLink = z.infer<typeof intercompanyLink>;
const intercompanyFilters = { organizationId: uuid('Not a valid organization').optional() };
export const intercompanyLinkQuery = listQuery.extend(intercompanyFilters);
export type IntercompanyLinkQuery = z.infer<typeof intercompanyLinkQuery>;
export const intercompanyLinkExportQuery = exportQuery.extend(intercompanyFilters);
export type IntercompanyLinkExportQuery = z.infer<typeof intercompanyLinkExportQuery>;
export const intercompanyLinks = paginated(intercompanyLink);
export const intercompanyCandidateQuery = z.object({
  organizationId: uuid('Not a valid organization').optional(),
  q: z.string().trim().max(200).optional(),
});
export const intercompanyCandidate = z.object({
  vendorId: z.string(),
  vendorName: z.string(),
  organizationId: z.string(),
  organizationName: z.string(),
});
export const intercompanyCandidates = z.object({ items: z.array(intercompanyCandidate) });
export type IntercompanyCandidate = z.infer<typeof intercompanyCandidate>;
export const vendorIdParam = z.object({ vendorId: uuid('Not a valid vendor id') });
export const linkIntercompanyInput = z.object({ intercompanyOrganizationId: uuid('Choose the group company this vendor is') });
export type LinkIntercompanyInput = z.infer<typeof linkIntercompanyInput>;

// ---------------------------------------------------------------------------------------------
// Departments
// ---------------------------------------------------------------------------------------------
export const department = z.object({
  id: z.string(),
  organizationId: z.string(),
  organizationName: z.string(),
  name: z.string(),
  code: z.string(),
  costCenter: z.string().nullable(),
  headUserId: z.string().nullable(),
  headName: z.string().nullable(),
  parentId: z.string().nullable(),
  parentName: z.string().nullable(),
  active: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Department = z.infer<typeof department>;
const departmentFilters = { organizationId: uuid('Not a valid organization').optional(), active: activeFilter };
export const departmentListQuery = listQuery.extend(departmentFilters);
export type DepartmentListQuery = z.infer<typeof departmentListQuery>;
export const departmentExportQuery = exportQuery.extend(departmentFilters);
export type DepartmentExportQuery = z.infer<typeof departmentExportQuery>;
export const departmentList = paginated(department);

export const createDepartmentInput = z.object({
  organizationId: uuid('Choose an organization'),
  name: requiredText('Name', 120),
  code: codeField('Code'),
  costCenter: optionalText('Cost center', 40),
  headUserId: uuid('Not a valid department head').nullable().optional(),
  parentId: uuid('Not a valid parent department').nullable().optional(),
  active: z.boolean().default(true),
});
export type CreateDepartmentInput = z.input<typeof createDepartmentInput>;
/** What the API receives after validation. */
export type CreateDepartmentValues = z.output<typeof createDepartmentInput>;
export const updateDepartmentInput = createDepartmentInput
  .omit({ organizationId: true })
  .extend({ active: z.boolean() })
  .partial()
  .refine((v) => Object.values(v).some((x) => x !== undefined), 'Nothing to change');
export type UpdateDepartmentInput = z.input<typeof updateDepartmentInput>;
/** What the API receives after validation. */
export type UpdateDepartmentValues = z.output<typeof updateDepartmentInput>;

// ---------------------------------------------------------------------------------------------
// Categories
// ---------------------------------------------------------------------------------------------
export const category = z.object({
  id: z.string(),
  organizationId: z.string().nullable(),
  organizationName: z.string().nullable(),
  name: z.string(),
  code: z.string(),
  glAccount: z.string(),
  parentId: z.string().nullable(),
  parentName: z.string().nullable(),
  perRequestLimit: z.string().nullable(),
  receiptRequiredAbove: z.string().nullable(),
  active: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Category = z.infer<typeof category>;
const categoryFilters = { active: activeFilter, parentId: uuid('Not a valid parent category').optional() };
export const categoryListQuery = listQuery.extend(categoryFilters);
export type CategoryListQuery = z.infer<typeof categoryListQuery>;
export const categoryExportQuery = exportQuery.extend(categoryFilters);
export type CategoryExportQuery = z.infer<typeof categoryExportQuery>;
export const categoryList = paginated(category);

export const createCategoryInput = z.object({
  name: requiredText('Name', 120),
  code: codeField('Code'),
  glAccount: requiredText('GL account', 40),
  parentId: uuid('Not a valid parent category').nullable().optional(),
  /** A category of one organization only; group-wide when omitted. */
  organizationId: uuid('Not a valid organization').nullable().optional(),
  perRequestLimit: optionalAmount,
  receiptRequiredAbove: optionalAmount,
  active: z.boolean().default(true),
});
export type CreateCategoryInput = z.input<typeof createCategoryInput>;
/** What the API receives after validation. */
export type CreateCategoryValues = z.output<typeof createCategoryInput>;
export const updateCategoryInput = createCategoryInput
  .omit({ organizationId: true })
  .extend({ active: z.boolean() })
  .partial()
  .refine((v) => Object.values(v).some((x) => x !== undefined), 'Nothing to change');
export type UpdateCategoryInput = z.input<typeof updateCategoryInput>;
/** What the API receives after validation. */
export type UpdateCategoryValues = z.output<typeof updateCategoryInput>;

// ---------------------------------------------------------------------------------------------
// FX rates
// ---------------------------------------------------------------------------------------------
export const fxPeriod = z
  .string()
  .trim()
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'Use a period such as 2026-01 (year and month)');
export const fxRateValue = (label: string) =>
  z
    .string()
    .trim()
    .regex(/^\d{1,10}(\.\d{1,8})?$/, `${label} must be a positive number with at most 8 decimals`)
    .refine((v) => /[1-9]/.test(v), `${label} must be greater than zero`);

export const fxRate = z.object({
  id: z.string(),
  base: z.string(),
  quote: z.string(),
  period: z.string(),
  averageRate: z.string(),
  closingRate: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type FxRate = z.infer<typeof fxRate>;
const fxFilters = {
  base: currencyCode.optional(),
  quote: currencyCode.optional(),
  from: fxPeriod.optional(),
  to: fxPeriod.optional(),
};
export const fxRateListQuery = listQuery.extend(fxFilters);
export type FxRateListQuery = z.infer<typeof fxRateListQuery>;
export const fxRateExportQuery = exportQuery.extend(fxFilters);
export type FxRateExportQuery = z.infer<typeof fxRateExportQuery>;
export const fxRateList = paginated(fxRate);

export const createFxRateInput = z
  .object({
    base: currencyField,
    quote: currencyField,
    period: fxPeriod,
    averageRate: fxRateValue('Average rate'),
    closingRate: fxRateValue('Closing rate'),
  })
  .refine((v) => v.base !== v.quote, { message: 'Base and quote currencies must differ', path: ['quote'] });
export type CreateFxRateInput = z.input<typeof createFxRateInput>;
export type CreateFxRateValues = z.output<typeof createFxRateInput>;
export const updateFxRateInput = z
  .object({ averageRate: fxRateValue('Average rate'), closingRate: fxRateValue('Closing rate') })
  .partial()
  .refine((v) => v.averageRate !== undefined || v.closingRate !== undefined, 'Nothing to change');
export type UpdateFxRateInput = z.infer<typeof updateFxRateInput>;
