// Schemas for approval workflows: their steps and match conditions, the simulator, and the people
// who can be named in a step (docs/product.md §3.4 "Approvals and workflows").
import { z } from 'zod';
import { currencyCode, moneyAmount } from './lists.ts';
import { ROLES } from './roles.ts';
import { compareMoney } from './money.ts';
import { APPROVER_KIND_VALUES, STEP_MODE_VALUES } from './requests.ts';

/**
 * Roles a step's approver is resolved from, relative to the request: manager and
 * department_head of its department, the subsidiary roles of its organization, the group
 * roles anywhere in the group.
 */
export const RELATIVE_ROLES = [
  'manager',
  'department_head',
  'subsidiary_finance_manager',
  'subsidiary_ceo',
  'subsidiary_coo',
  'subsidiary_technical',
  'subsidiary_supply_chain',
  'accounts',
  'cfo',
  'group_cfo',
  'group_ceo',
  'group_coo',
  'group_cto',
  'group_supply_chain',
] as const;
export type RelativeRole = (typeof RELATIVE_ROLES)[number];

export const RELATIVE_ROLE_LABELS: Record<RelativeRole, string> = {
  manager: "Requester's manager",
  department_head: 'Head of the department',
  subsidiary_finance_manager: 'Finance manager of the organization',
  subsidiary_ceo: 'CEO of the organization',
  subsidiary_coo: 'COO of the organization',
  subsidiary_technical: 'Technical lead of the organization',
  subsidiary_supply_chain: 'Supply chain lead of the organization',
  accounts: 'Accounts of the organization',
  cfo: 'CFO',
  group_cfo: 'Group CFO',
  group_ceo: 'Group CEO',
  group_coo: 'Group COO',
  group_cto: 'Group CTO',
  group_supply_chain: 'Group supply chain',
};

export const STEP_MODE_LABELS = { any: 'Any one of', all: 'All of' } as const;

const optionalMoney = moneyAmount.nullable().optional();

export const workflowConditions = z
  .object({
    minAmount: optionalMoney,
    maxAmount: optionalMoney,
    categoryIds: z.array(z.uuid()).max(50).default([]),
    departmentIds: z.array(z.uuid()).max(50).default([]),
    /** null: either. */
    overBudget: z.boolean().nullable().default(null),
    requesterRoles: z.array(z.enum(ROLES)).max(20).default([]),
  })
  .refine((c) => !c.minAmount || !c.maxAmount || compareMoney(c.minAmount, c.maxAmount) <= 0, {
    message: 'The minimum amount must not be above the maximum',
    path: ['maxAmount'],
  });
export type WorkflowConditions = z.infer<typeof workflowConditions>;

export const workflowStepInput = z
  .object({
    name: z.string().trim().min(2, 'Name the step (at least 2 characters)').max(100, 'At most 100 characters'),
    approverKind: z.enum(APPROVER_KIND_VALUES),
    approverRole: z.enum(RELATIVE_ROLES).nullable().optional(),
    approverUserId: z.uuid('Choose a user').nullable().optional(),
    mode: z.enum(STEP_MODE_VALUES).default('any'),
    slaHours: z.coerce
      .number({ error: 'The SLA must be a number of hours' })
      .int('The SLA must be whole hours')
      .min(1, 'The SLA must be between 1 and 720 hours')
      .max(720, 'The SLA must be between 1 and 720 hours'),
    fallbackUserId: z.uuid('Choose a user').nullable().optional(),
    balance: z.boolean().default(false),
  })
  .superRefine((s, ctx) => {
    if (s.approverKind === 'relative_role' && !s.approverRole)
      ctx.addIssue({ code: 'custom', path: ['approverRole'], message: 'Choose the role that approves' });
    if (s.approverKind === 'user' && !s.approverUserId)
      ctx.addIssue({ code: 'custom', path: ['approverUserId'], message: 'Choose the user who approves' });
    if (s.balance && s.mode !== 'any')
      ctx.addIssue({ code: 'custom', path: ['balance'], message: 'Balancing applies to "any one of" steps only' });
  });
export type WorkflowStepInput = z.infer<typeof workflowStepInput>;

export const workflowInput = z.object({
  organizationId: z.uuid('Choose an organization'),
  name: z.string().trim().min(3, 'Name the workflow (at least 3 characters)').max(120, 'At most 120 characters'),
  description: z.string().trim().max(1000, 'At most 1000 characters').nullable().optional(),
  priority: z.coerce.number().int().min(0, 'Priority is 0 to 1000').max(1000, 'Priority is 0 to 1000').default(100),
  active: z.boolean().default(true),
  conditions: workflowConditions,
  steps: z.array(workflowStepInput).min(1, 'A workflow needs at least one step').max(10, 'At most 10 steps'),
});
export type WorkflowInput = z.infer<typeof workflowInput>;
export type WorkflowForm = z.input<typeof workflowInput>;

export const workflowStep = z.object({
  id: z.string(),
  position: z.number().int(),
  name: z.string(),
  approverKind: z.enum(APPROVER_KIND_VALUES),
  approverRole: z.enum(RELATIVE_ROLES).nullable(),
  approverUserId: z.string().nullable(),
  approverUserName: z.string().nullable(),
  mode: z.enum(STEP_MODE_VALUES),
  slaHours: z.number().int(),
  fallbackUserId: z.string().nullable(),
  fallbackUserName: z.string().nullable(),
  balance: z.boolean(),
});
export type WorkflowStep = z.infer<typeof workflowStep>;

export const workflow = z.object({
  id: z.string(),
  organizationId: z.string(),
  organizationName: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  priority: z.number().int(),
  active: z.boolean(),
  version: z.number().int(),
  conditions: z.object({
    minAmount: z.string().nullable(),
    maxAmount: z.string().nullable(),
    categoryIds: z.array(z.string()),
    departmentIds: z.array(z.string()),
    overBudget: z.boolean().nullable(),
    requesterRoles: z.array(z.string()),
  }),
  steps: z.array(workflowStep),
  /** Requests in flight on this workflow (they keep their route when it changes). */
  inFlightCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Workflow = z.infer<typeof workflow>;

/** Conditions with every field present (stored rows and drafts may omit some; absent matches all). */
export function fullConditions(
  c:
    | {
        minAmount?: string | null;
        maxAmount?: string | null;
        categoryIds?: readonly string[];
        departmentIds?: readonly string[];
        overBudget?: boolean | null;
        requesterRoles?: readonly string[];
      }
    | null
    | undefined,
): Workflow['conditions'] {
  return {
    minAmount: c?.minAmount ?? null,
    maxAmount: c?.maxAmount ?? null,
    categoryIds: [...(c?.categoryIds ?? [])],
    departmentIds: [...(c?.departmentIds ?? [])],
    overBudget: c?.overBudget ?? null,
    requesterRoles: [...(c?.requesterRoles ?? [])],
  };
}

export const workflowListQuery = z.object({ organizationId: z.uuid().optional() });
export const workflowList = z.object({ items: z.array(workflow) });

/** A sample request run through the engine without saving anything. */
export const simulateInput = z.object({
  organizationId: z.uuid('Choose an organization'),
  amount: moneyAmount,
  currency: currencyCode,
  categoryId: z.uuid().nullable().optional(),
  departmentId: z.uuid().nullable().optional(),
  /** Whose request it would be (defaults to a member of the department, else the caller). */
  requesterId: z.uuid().nullable().optional(),
  overBudget: z.boolean().default(false),
  /** Try an unsaved workflow (the builder's current state) instead of the saved ones. */
  workflow: workflowInput.optional(),
});
export type SimulateInput = z.infer<typeof simulateInput>;

export const simulatedApprover = z.object({ id: z.string(), name: z.string(), role: z.string(), why: z.string() });
export const simulationResult = z.object({
  matched: z.boolean(),
  workflowId: z.string().nullable(),
  workflowName: z.string().nullable(),
  reasons: z.array(z.string()),
  amountOrg: z.string(),
  orgCurrency: z.string(),
  autoApproved: z.boolean(),
  autoApprovalRule: z.string().nullable(),
  steps: z.array(
    z.object({
      position: z.number().int(),
      name: z.string(),
      mode: z.enum(STEP_MODE_VALUES),
      slaHours: z.number().int(),
      approvers: z.array(simulatedApprover),
      warnings: z.array(z.string()),
    }),
  ),
});
export type SimulationResult = z.infer<typeof simulationResult>;

/** People who can be named as approvers, fallbacks or delegates. */
export const approverOptionsQuery = z.object({
  q: z.string().trim().max(100).optional(),
  organizationId: z.uuid().optional(),
});
export const approverOptions = z.object({
  items: z.array(
    z.object({ id: z.string(), name: z.string(), role: z.string(), organizationName: z.string().nullable() }),
  ),
});
