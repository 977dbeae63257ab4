// Schemas for expense categories (docs/product.md §3.9 "Organization and people").
import { z } from 'zod';
import { exportQuery, listQuery, paginated } from './lists.ts';
import { activeFilter, codeField, requiredText, uuid } from './fields.ts';
import { POLICY_ACTION_VALUES } from './policies.ts';

/** The policy rule kinds that set a category's limits and receipt threshold. */
export const CATEGORY_LIMIT_KIND_VALUES = [
  'category_limit_request',
  'category_limit_month',
  'receipt_required',
] as const;

/**
 * A limit that applies to a category, read from the policy rule that sets it: the rule is the one
 * place the number lives, and the category screen links to it.
 */
export const categoryLimit = z.object({
  ruleId: z.string(),
  ruleName: z.string(),
  kind: z.enum(CATEGORY_LIMIT_KIND_VALUES),
  action: z.enum(POLICY_ACTION_VALUES),
  amount: z.string(),
  /**
   * The currency the amount is in for the reader: the rule's own, else its organization's (or the
   * category's), else the reader's organization's.
   */
  currency: z.string(),
  /** True when the rule names no currency and no organization: each company applies the amount in its own currency. */
  eachOrganizationCurrency: z.boolean(),
  /** The rule's organization; null when it applies to every organization. */
  organizationName: z.string().nullable(),
  /** The rule applies only when its conditions hold. */
  conditional: z.boolean(),
});
export type CategoryLimit = z.infer<typeof categoryLimit>;

export const category = z.object({
  id: z.string(),
  organizationId: z.string().nullable(),
  organizationName: z.string().nullable(),
  name: z.string(),
  code: z.string(),
  glAccount: z.string(),
  parentId: z.string().nullable(),
  parentName: z.string().nullable(),
  /** The active policy rules that limit requests of this category, in priority order. */
  limits: z.array(categoryLimit),
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

/** Limits live in the policy rules: a category field for one is refused, not quietly dropped. */
const LIMITS_ARE_POLICIES =
  'Per-request limits and receipt thresholds are policy rules: change them in Policy Management';
const MOVED_FIELDS = new Set(['perRequestLimit', 'perRequestLimitAction', 'receiptRequiredAbove']);

export const createCategoryInput = z.strictObject(
  {
    name: requiredText('Name', 120),
    code: codeField('Code'),
    glAccount: requiredText('GL account', 40),
    parentId: uuid('Not a valid parent category').nullable().optional(),
    /** A category of one organization only; group-wide when omitted. */
    organizationId: uuid('Not a valid organization').nullable().optional(),
    active: z.boolean().default(true),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? issue.keys.some((k) => MOVED_FIELDS.has(k))
          ? LIMITS_ARE_POLICIES
          : `Unknown field: ${issue.keys.join(', ')}`
        : undefined,
  },
);
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
