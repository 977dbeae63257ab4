// Financial flow (docs/product.md §3.7 /financial-flow): where the money goes, organization → department
// → category → vendor, for a period and a status filter, in the group currency.
import { z } from 'zod';
import { listQuery, paginated } from './lists.ts';
import { isoMonth } from './primitives.ts';
import { requestStatus } from './requests.ts';

/** Which requests a flow carries: spend (approved, paid) and, on demand, what is still waiting. */
export const FLOW_STATUS_VALUES = ['approved', 'paid', 'pending'] as const;
export type FlowStatus = (typeof FLOW_STATUS_VALUES)[number];
export const DEFAULT_FLOW_STATUSES: readonly FlowStatus[] = ['approved', 'paid'];

export const FLOW_NODE_KIND_VALUES = ['organization', 'department', 'category', 'vendor'] as const;
export type FlowNodeKind = (typeof FLOW_NODE_KIND_VALUES)[number];
export const FLOW_NODE_KIND_LABELS: Record<FlowNodeKind, string> = {
  organization: 'Organization',
  department: 'Department',
  category: 'Category',
  vendor: 'Vendor',
};
/** What a node stands for when requests have no department, category or vendor. */
export const FLOW_NONE_LABELS: Record<Exclude<FlowNodeKind, 'organization'>, string> = {
  department: 'No department',
  category: 'Uncategorized',
  vendor: 'No vendor',
};

/** `approved,paid` on the wire; each status once. */
const flowStatuses = z.preprocess(
  (v) =>
    typeof v === 'string'
      ? [
          ...new Set(
            v
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean),
          ),
        ]
      : v,
  z
    .array(z.enum(FLOW_STATUS_VALUES, { error: 'Statuses are approved, paid and pending' }))
    .min(1, 'Choose at least one status')
    .max(3),
);

export const financialFlowQuery = z
  .object({
    from: isoMonth.optional(),
    to: isoMonth.optional(),
    status: flowStatuses.optional(),
    organizationId: z.uuid('Not a valid organization id').optional(),
    departmentId: z.uuid('Not a valid department id').optional(),
    categoryId: z.uuid('Not a valid category id').optional(),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, {
    path: ['to'],
    message: 'The end month is before the start month',
  });
export type FinancialFlowQuery = z.input<typeof financialFlowQuery>;

/**
 * A node's id names its kind and record: `organization:<id>`, `department:<id>`, and
 * `department:none` (likewise category, vendor) for requests without one.
 */
export const flowNodeId = z
  .string()
  .trim()
  .regex(
    /^(organization:[0-9a-f-]{36}|(department|category|vendor):([0-9a-f-]{36}|none))$/i,
    'Not a flow node; use organization:<id>, department:<id>, category:<id>, vendor:<id> or department:none',
  );

export const flowNode = z.object({
  id: z.string(),
  kind: z.enum(FLOW_NODE_KIND_VALUES),
  name: z.string(),
  /** The organization a department or vendor belongs to (names repeat across organizations). */
  organizationName: z.string().nullable(),
  /** What flows through the node, in the group currency. */
  amount: z.string(),
  requestCount: z.number().int(),
});
export type FlowNode = z.infer<typeof flowNode>;

export const flowLink = z.object({
  source: z.string(),
  target: z.string(),
  amount: z.string(),
  requestCount: z.number().int(),
});
export type FlowLink = z.infer<typeof flowLink>;

export const financialFlow = z.object({
  from: isoMonth,
  to: isoMonth,
  statuses: z.array(z.enum(FLOW_STATUS_VALUES)),
  /** The group currency every amount is in. */
  currency: z.string(),
  /** Every aggregate row translated at its month's average rate, then added: the consolidated total of the same filter. */
  total: z.string(),
  requestCount: z.number().int(),
  nodes: z.array(flowNode),
  links: z.array(flowLink),
});
export type FinancialFlow = z.infer<typeof financialFlow>;

export const flowRequestsQuery = listQuery.extend({
  node: flowNodeId,
  from: isoMonth.optional(),
  to: isoMonth.optional(),
  status: flowStatuses.optional(),
  organizationId: z.uuid('Not a valid organization id').optional(),
  departmentId: z.uuid('Not a valid department id').optional(),
  categoryId: z.uuid('Not a valid category id').optional(),
});
export type FlowRequestsQuery = z.input<typeof flowRequestsQuery>;
export const FLOW_REQUEST_SORTS = ['month', 'amount', 'reference', 'title'] as const;

export const flowRequest = z.object({
  id: z.uuid(),
  reference: z.string(),
  title: z.string(),
  status: requestStatus,
  /** The month the request counts in: its decision, or its submission while pending. */
  month: z.string(),
  organizationName: z.string(),
  departmentName: z.string().nullable(),
  categoryName: z.string().nullable(),
  vendorName: z.string().nullable(),
  /** The approved part when line items were cut, in the request's currency. */
  amount: z.string(),
  currency: z.string(),
  /** The same in the group currency at the month's average rate. */
  amountGroup: z.string(),
});
export type FlowRequest = z.infer<typeof flowRequest>;
export const flowRequestPage = paginated(flowRequest).extend({ currency: z.string() });
export type FlowRequestPage = z.infer<typeof flowRequestPage>;
