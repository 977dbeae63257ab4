// Schemas for policies: expense rules, their versions, the live evaluation of a draft
// request and the simulation of a rule against past requests (docs/product.md §3.6 /policy-management,
// /enhanced-policy-management).
import { z } from 'zod';
import { listQuery, paginated } from './lists.ts';
import { currencyCode, isoDate } from './primitives.ts';

export const POLICY_KIND_VALUES = [
  'category_limit_request',
  'category_limit_month',
  'receipt_required',
  'blocked_vendor',
  'weekend_spend',
  'duplicate',
  'max_age',
  'custom',
] as const;
export type PolicyKind = (typeof POLICY_KIND_VALUES)[number];

export const POLICY_KIND_LABELS: Record<PolicyKind, string> = {
  category_limit_request: 'Category limit per request',
  category_limit_month: 'Category limit per month',
  receipt_required: 'Receipt required',
  blocked_vendor: 'Blocked vendors',
  weekend_spend: 'Weekend spend',
  duplicate: 'Duplicate detection',
  max_age: 'Maximum age of the expense',
  custom: 'Custom (conditions only)',
};

export const POLICY_ACTION_VALUES = ['warn', 'justify', 'block'] as const;
export type PolicyAction = (typeof POLICY_ACTION_VALUES)[number];
export const POLICY_ACTION_LABELS: Record<PolicyAction, string> = {
  warn: 'Warn',
  justify: 'Needs justification',
  block: 'Block',
};

/** Request fields a condition can test. */
export const POLICY_FIELD_VALUES = [
  'amount',
  'amountOrg',
  'currency',
  'categoryId',
  'departmentId',
  'vendorId',
  'kind',
  'title',
  'description',
  'expenseDate',
  'requesterRole',
  'organizationId',
] as const;
export type PolicyField = (typeof POLICY_FIELD_VALUES)[number];
export const POLICY_FIELD_LABELS: Record<PolicyField, string> = {
  amount: 'Amount (as raised)',
  amountOrg: 'Amount (organization currency)',
  currency: 'Currency',
  categoryId: 'Category',
  departmentId: 'Department',
  vendorId: 'Vendor',
  kind: 'Kind',
  title: 'Title',
  description: 'Description',
  expenseDate: 'Expense date',
  requesterRole: 'Requester role',
  organizationId: 'Organization',
};
/** Fields compared as numbers (decimal strings); expenseDate compares as an ISO date string. */
export const NUMERIC_POLICY_FIELDS: readonly PolicyField[] = ['amount', 'amountOrg'];

export const POLICY_OPERATOR_VALUES = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in', 'not_in', 'contains'] as const;
export type PolicyOperator = (typeof POLICY_OPERATOR_VALUES)[number];
export const POLICY_OPERATOR_LABELS: Record<PolicyOperator, string> = {
  eq: '=',
  neq: '≠',
  gt: '>',
  gte: '≥',
  lt: '<',
  lte: '≤',
  in: 'is one of',
  not_in: 'is none of',
  contains: 'contains',
};

export const conditionValue = z.union([z.string().max(500), z.number(), z.array(z.string().max(500)).max(200)]);
export const policyCondition = z.object({
  field: z.enum(POLICY_FIELD_VALUES),
  operator: z.enum(POLICY_OPERATOR_VALUES),
  value: conditionValue,
});
export type PolicyCondition = z.infer<typeof policyCondition>;

export interface PolicyConditionGroup {
  op: 'and' | 'or';
  items: (PolicyCondition | PolicyConditionGroup)[];
}

export const policyConditionGroup: z.ZodType<PolicyConditionGroup> = z.lazy(() =>
  z.object({
    op: z.enum(['and', 'or']),
    items: z.array(z.union([policyCondition, policyConditionGroup])).max(50, 'At most 50 conditions in a group'),
  }),
);

export function isConditionGroup(x: PolicyCondition | PolicyConditionGroup): x is PolicyConditionGroup {
  return (x as PolicyConditionGroup).op !== undefined && Array.isArray((x as PolicyConditionGroup).items);
}

const amountText = z
  .string()
  .trim()
  .regex(/^\d{1,12}(\.\d{1,2})?$/, 'Enter an amount with at most two decimals');

/** Settings per kind (all optional in the schema; the service checks what each kind needs). */
export const policyParams = z
  .object({
    categoryId: z.uuid('Choose a category').nullable().optional(),
    limit: amountText.optional(),
    currency: currencyCode.nullable().optional(),
    above: amountText.optional(),
    vendorIds: z.array(z.uuid()).max(200).optional(),
    days: z.number().int().min(1, 'At least 1 day').max(3650).optional(),
    similarity: z.number().min(0).max(1).optional(),
  })
  .strict();
export type PolicyParams = z.infer<typeof policyParams>;

export const policyRuleInput = z
  .object({
    organizationId: z.uuid().nullable().default(null),
    name: z.string().trim().min(3, 'The name must be at least 3 characters').max(120, 'At most 120 characters'),
    description: z.string().trim().max(1000).nullable().optional(),
    kind: z.enum(POLICY_KIND_VALUES),
    action: z.enum(POLICY_ACTION_VALUES),
    priority: z.number().int().min(0).max(10_000).default(100),
    active: z.boolean().default(true),
    effectiveFrom: isoDate.nullable().optional(),
    effectiveTo: isoDate.nullable().optional(),
    params: policyParams.default({}),
    conditions: policyConditionGroup.nullable().optional(),
  })
  .superRefine((v, ctx) => {
    const p = v.params;
    const need = (ok: boolean, path: string, message: string) => {
      if (!ok) ctx.addIssue({ code: 'custom', path: ['params', path], message });
    };
    if (v.kind === 'category_limit_request' || v.kind === 'category_limit_month')
      need(!!p.limit, 'limit', 'Enter the limit');
    if (v.kind === 'receipt_required') need(!!p.above, 'above', 'Enter the amount above which a receipt is required');
    if (v.kind === 'blocked_vendor') need((p.vendorIds ?? []).length > 0, 'vendorIds', 'Choose at least one vendor');
    if (v.kind === 'duplicate' || v.kind === 'max_age') need(p.days !== undefined, 'days', 'Enter the number of days');
    if (v.kind === 'custom') {
      if (!v.conditions || v.conditions.items.length === 0)
        ctx.addIssue({ code: 'custom', path: ['conditions'], message: 'A custom rule needs at least one condition' });
    }
    if (v.effectiveFrom && v.effectiveTo && v.effectiveTo < v.effectiveFrom) {
      ctx.addIssue({
        code: 'custom',
        path: ['effectiveTo'],
        message: 'The end date must be on or after the start date',
      });
    }
  });
export type PolicyRuleInput = z.infer<typeof policyRuleInput>;
export type PolicyRuleForm = z.input<typeof policyRuleInput>;

export const policyRule = z.object({
  id: z.string(),
  organizationId: z.string().nullable(),
  organizationName: z.string().nullable(),
  name: z.string(),
  description: z.string().nullable(),
  kind: z.enum(POLICY_KIND_VALUES),
  action: z.enum(POLICY_ACTION_VALUES),
  priority: z.number().int(),
  active: z.boolean(),
  effectiveFrom: z.string().nullable(),
  effectiveTo: z.string().nullable(),
  params: policyParams,
  conditions: policyConditionGroup.nullable(),
  version: z.number().int(),
  /** Words: "Meals above 150.00 per request". */
  summary: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PolicyRule = z.infer<typeof policyRule>;

export const POLICY_SORTS = ['name', 'kind', 'action', 'priority', 'active', 'version', 'updatedAt'] as const;
export const policyListQuery = listQuery.extend({
  sort: z.enum(POLICY_SORTS).optional(),
  kind: z.enum(POLICY_KIND_VALUES).optional(),
  action: z.enum(POLICY_ACTION_VALUES).optional(),
  active: z.enum(['true', 'false']).optional(),
  organizationId: z.uuid().optional(),
});
export type PolicyListQuery = z.infer<typeof policyListQuery>;
export const policyList = paginated(policyRule);
export type PolicyList = z.infer<typeof policyList>;

export const policyActiveInput = z.object({ active: z.boolean() });

export const policyRuleVersion = z.object({
  version: z.number().int(),
  snapshot: z.record(z.string(), z.unknown()),
  changedByName: z.string().nullable(),
  createdAt: z.string(),
});
export type PolicyRuleVersion = z.infer<typeof policyRuleVersion>;
export const policyRuleVersions = z.object({ items: z.array(policyRuleVersion) });

export const policyFinding = z.object({
  ruleId: z.string(),
  version: z.number().int(),
  ruleName: z.string(),
  kind: z.string(),
  action: z.enum(POLICY_ACTION_VALUES),
  message: z.string(),
});
export type PolicyFindingView = z.infer<typeof policyFinding>;

/**
 * A draft request form as the user types it: everything optional and lenient (a half-typed
 * amount is ignored, not refused). `requestId` (editing a saved draft) counts its attachments
 * and keeps it out of its own duplicate check.
 */
export const policyEvaluateInput = z.object({
  requestId: z.uuid().nullable().optional(),
  title: z.string().max(200).nullable().optional(),
  description: z.string().max(5000).nullable().optional(),
  justification: z.string().max(2000).nullable().optional(),
  kind: z.enum(['purchase', 'reimbursement', 'advance']).nullable().optional(),
  amount: z.string().max(40).nullable().optional(),
  currency: z.string().max(3).nullable().optional(),
  categoryId: z.uuid().nullable().optional().catch(null),
  departmentId: z.uuid().nullable().optional().catch(null),
  vendorId: z.uuid().nullable().optional().catch(null),
  expenseDate: z.string().max(10).nullable().optional(),
  attachmentCount: z.number().int().min(0).max(100).optional(),
});
export type PolicyEvaluateInput = z.infer<typeof policyEvaluateInput>;
export const policyEvaluateResult = z.object({
  findings: z.array(policyFinding),
  /** True when a finding blocks, or asks for a justification the form does not have. */
  blocked: z.boolean(),
  versions: z.array(z.object({ ruleId: z.string(), version: z.number().int() })),
});
export type PolicyEvaluateResult = z.infer<typeof policyEvaluateResult>;

/** Try a saved rule (`ruleId`) or an unsaved definition (`rule`) against the last N months. */
export const policySimulateInput = z
  .object({
    ruleId: z.uuid().optional(),
    rule: policyRuleInput.optional(),
    months: z.number().int().min(1, 'At least 1 month').max(36, 'At most 36 months').default(6),
  })
  .refine((v) => !!v.ruleId !== !!v.rule, {
    message: 'Give either a saved rule or a rule definition',
    path: ['ruleId'],
  });
export type PolicySimulateInput = z.input<typeof policySimulateInput>;
export type PolicySimulateBody = z.infer<typeof policySimulateInput>;
export const policySimulateResult = z.object({
  months: z.number().int(),
  evaluated: z.number().int(),
  flagged: z.number().int(),
  byAction: z.object({ warn: z.number().int(), justify: z.number().int(), block: z.number().int() }),
  examples: z.array(
    z.object({
      requestId: z.string(),
      reference: z.string(),
      title: z.string(),
      amount: z.string(),
      currency: z.string(),
      status: z.string(),
      submittedAt: z.string().nullable(),
      message: z.string(),
    }),
  ),
});
export type PolicySimulateResult = z.infer<typeof policySimulateResult>;

/** Options for the rule forms: categories, vendors and departments to name in params and conditions. */
export const policyOptions = z.object({
  organizations: z.array(z.object({ id: z.string(), name: z.string(), currency: z.string() })),
  categories: z.array(z.object({ id: z.string(), name: z.string(), organizationId: z.string().nullable() })),
  vendors: z.array(z.object({ id: z.string(), name: z.string(), organizationId: z.string(), status: z.string() })),
  departments: z.array(z.object({ id: z.string(), name: z.string(), organizationId: z.string() })),
});
export type PolicyOptions = z.infer<typeof policyOptions>;
