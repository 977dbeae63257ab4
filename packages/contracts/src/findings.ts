// Findings (docs/product.md §3.8 /smart-analytics): patterns in the requests of the caller's reporting
// scope that deserve a look: amount outliers within a category, likely duplicates, purchases
// split under an approval threshold, unusual timing, Benford deviations. Each links to its
// requests, can be dismissed with a reason (audited) or turned into a policy rule.
import { z } from 'zod';
import { POLICY_ACTION_VALUES } from './policies.ts';
import { text } from './primitives.ts';

export const FINDING_KIND_VALUES = ['outlier', 'duplicate', 'split', 'timing', 'benford'] as const;
export type FindingKind = (typeof FINDING_KIND_VALUES)[number];
export const FINDING_KIND_LABELS: Record<FindingKind, string> = {
  outlier: 'Amount outlier',
  duplicate: 'Likely duplicate',
  split: 'Split purchase',
  timing: 'Unusual timing',
  benford: 'Benford deviation',
};

export const FINDING_SEVERITY_VALUES = ['high', 'medium', 'low'] as const;
export type FindingSeverity = (typeof FINDING_SEVERITY_VALUES)[number];
export const FINDING_SEVERITY_LABELS: Record<FindingSeverity, string> = { high: 'High', medium: 'Medium', low: 'Low' };

/** How far back findings look: the last N months, at most a year (bounded by the created-at index). */
export const FINDINGS_MAX_MONTHS = 12;
/** Benford's first-digit test only says something with enough amounts (Nigrini): fewer are not tested. */
export const BENFORD_MIN_COUNT = 100;

export const findingRequest = z.object({
  id: z.string(),
  reference: z.string(),
  title: z.string(),
  requesterName: z.string(),
  vendorName: z.string().nullable(),
  amount: z.string(),
  currency: z.string(),
  /** The day the expense happened (expense date, else the day it was raised), YYYY-MM-DD. */
  date: z.string(),
  status: z.string(),
});
export type FindingRequest = z.infer<typeof findingRequest>;

export const findingDismissal = z.object({
  reason: z.string(),
  dismissedByName: z.string(),
  dismissedAt: z.string(),
});

export const finding = z.object({
  /** Stable while the finding's evidence is the same: new evidence makes a new finding. */
  key: z.string(),
  kind: z.enum(FINDING_KIND_VALUES),
  severity: z.enum(FINDING_SEVERITY_VALUES),
  title: z.string(),
  /** Why, in words, with the statistic. */
  detail: z.string(),
  organizationId: z.string().nullable(),
  organizationName: z.string().nullable(),
  /** The statistic the finding rests on (robust z-score, similarity, count, Benford MAD…). */
  score: z.number(),
  /** Up to 50 of its requests, newest first; requestCount says how many there are. */
  requests: z.array(findingRequest),
  requestCount: z.number().int(),
  /** The sum of its requests' amounts in the organization's currency (null across currencies). */
  total: z.object({ amount: z.string(), currency: z.string() }).nullable(),
  /** The policy rule it can become, in words (null: no rule kind fits). */
  ruleSuggestion: z.string().nullable(),
  dismissal: findingDismissal.nullable(),
});
export type Finding = z.infer<typeof finding>;

export const FINDING_STATUS_VALUES = ['open', 'dismissed', 'all'] as const;
export const findingListQuery = z.object({
  kind: z.enum(FINDING_KIND_VALUES).optional(),
  status: z.enum(FINDING_STATUS_VALUES).default('open'),
  months: z.coerce.number().int().min(1).max(FINDINGS_MAX_MONTHS).default(FINDINGS_MAX_MONTHS),
});
export type FindingListQuery = z.infer<typeof findingListQuery>;

export const findingList = z.object({
  items: z.array(finding),
  /** Open findings per kind (whatever the kind filter), for the tabs. */
  counts: z.record(z.enum(FINDING_KIND_VALUES), z.number().int()),
  dismissedCount: z.number().int(),
  from: z.string(),
  to: z.string(),
  computedAt: z.string(),
  requestsExamined: z.number().int(),
  /** Requesters and vendors with enough amounts for the Benford test. */
  benfordTested: z.number().int(),
  benfordMinCount: z.number().int(),
});
export type FindingList = z.infer<typeof findingList>;

const findingKey = text.pipe(z.string().trim().min(3, 'Choose a finding').max(200));

export const dismissFindingInput = z.object({
  key: findingKey,
  reason: text.pipe(z.string().trim().min(3, 'Say why (at least 3 characters)').max(500, 'At most 500 characters')),
});
export type DismissFindingInput = z.infer<typeof dismissFindingInput>;

export const findingRuleInput = z.object({
  key: findingKey,
  action: z.enum(POLICY_ACTION_VALUES).default('justify'),
});
export type FindingRuleInput = z.infer<typeof findingRuleInput>;
