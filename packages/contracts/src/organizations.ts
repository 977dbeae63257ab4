// Schemas for the organizations screens and API: organizations and their hierarchy,
// departments and intercompany links (docs/product.md §3.9 "Organization and people"). Categories and
// FX rates have their own files.
import { z } from 'zod';
import { exportQuery, listQuery, paginated } from './lists.ts';
import { timeZone } from './primitives.ts';
import { countryCode } from './countries.ts';
import { activeFilter, codeField, currencyField, optionalAmount, optionalText, requiredText, uuid } from './fields.ts';

export { nonNegativeAmount, optionalAmount } from './fields.ts';

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
  /** ISO 3166-1 alpha-2; its weekend and public holidays move pay and due dates. */
  country: z.string().nullable(),
  taxId: z.string().nullable(),
  fiscalYearStartMonth: z.number().int(),
  /** The zone its people's schedules run in unless they chose their own (the group's: scheduled backups too). */
  timeZone: z.string().optional(),
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
  country: countryCode.nullable().optional(),
  taxId: optionalText('Tax id', 60),
  fiscalYearStartMonth: fiscalYearStartMonth.default(1),
  /** The parent's time zone when omitted. */
  timeZone: timeZone.optional(),
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
    country: countryCode.nullable(),
    taxId: optionalText('Tax id', 60),
    fiscalYearStartMonth,
    timeZone,
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
export const organizationMember = z.object({
  id: z.string(),
  name: z.string(),
  username: z.string(),
  departmentId: z.string().nullable(),
});
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
export const linkIntercompanyInput = z.object({
  intercompanyOrganizationId: uuid('Choose the group company this vendor is'),
});
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
