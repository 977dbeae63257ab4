// Schemas for expense categories (docs/product.md §3.9 "Organization and people").
import { z } from 'zod';
import { exportQuery, listQuery, paginated } from './lists.ts';
import { activeFilter, codeField, optionalAmount, requiredText, uuid } from './fields.ts';
import { POLICY_ACTION_VALUES } from './policies.ts';

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
  /** What a request above the limit gets at submission: a policy finding with this action. */
  perRequestLimitAction: z.enum(POLICY_ACTION_VALUES),
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
  /** Warn when omitted on a new category. */
  perRequestLimitAction: z.enum(POLICY_ACTION_VALUES, { error: 'Choose warn, require justification or block' }).optional(),
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
