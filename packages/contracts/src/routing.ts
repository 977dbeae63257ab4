// Schemas for smart routing: a request's route explained, decision-time prediction, and
// auto-approval rules.
import { z } from 'zod';
import { moneyAmount } from './lists.ts';
import { isPositive } from './money.ts';
import { routeStep } from './requests.ts';

export const prediction = z.object({
  /** Hours from submission to final decision for similar requests; null without history. */
  medianHours: z.number().nullable(),
  p90Hours: z.number().nullable(),
  sample: z.number().int(),
  basis: z.string(),
});
export type Prediction = z.infer<typeof prediction>;

export const routeExplanation = z.object({
  requestId: z.string(),
  reference: z.string(),
  title: z.string(),
  status: z.string(),
  workflowId: z.string().nullable(),
  workflowName: z.string().nullable(),
  reasons: z.array(z.string()),
  steps: z.array(routeStep),
  prediction,
});
export type RouteExplanation = z.infer<typeof routeExplanation>;

export const predictionQuery = z.object({
  organizationId: z.uuid(),
  amount: moneyAmount.optional(),
  categoryId: z.uuid().optional(),
});

export const autoApprovalRule = z.object({
  id: z.string(),
  organizationId: z.string(),
  organizationName: z.string(),
  name: z.string(),
  maxAmount: z.string(),
  currency: z.string(),
  categoryIds: z.array(z.string()),
  requireWithinBudget: z.boolean(),
  requireNoFindings: z.boolean(),
  active: z.boolean(),
  /** Requests this rule approved so far. */
  appliedCount: z.number().int(),
  updatedAt: z.string(),
});
export type AutoApprovalRule = z.infer<typeof autoApprovalRule>;
export const autoApprovalRuleList = z.object({ items: z.array(autoApprovalRule) });

export const autoApprovalRuleInput = z.object({
  organizationId: z.uuid('Choose an organization'),
  name: z.string().trim().min(3, 'Name the rule (at least 3 characters)').max(120),
  maxAmount: moneyAmount.refine((v) => isPositive(v), 'The limit must be more than zero'),
  categoryIds: z.array(z.uuid()).max(50).default([]),
  requireWithinBudget: z.boolean().default(true),
  requireNoFindings: z.boolean().default(true),
  active: z.boolean().default(true),
});
export type AutoApprovalRuleInput = z.infer<typeof autoApprovalRuleInput>;
