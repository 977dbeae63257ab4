// Coaching (docs/product.md §3.14 /expense-coaching): the caller's own picture: the policy findings on their
// requests and the Smart Analytics findings about them over time, the requests sent back or
// rejected and why, their spend against their department's median, and tips drawn from the
// policies that flagged them.
import { z } from 'zod';
import { FINDING_KIND_VALUES } from './findings.ts';

/** The fewest people a department median is computed over: below it, it would tell a colleague's spend. */
export const COACHING_MIN_PEERS = 5;
export const COACHING_MEDIAN_WITHHELD_VALUES = ['no_department', 'too_few_people'] as const;
export type CoachingMedianWithheld = (typeof COACHING_MEDIAN_WITHHELD_VALUES)[number];

export const coachingMonth = z.object({
  month: z.string(),
  requests: z.number().int(),
  /** Requests of the month with at least one policy finding at submission. */
  flagged: z.number().int(),
  /** Smart Analytics findings about the caller's requests of the month. */
  analytics: z.number().int(),
});

export const coachingReturned = z.object({
  id: z.string(),
  reference: z.string(),
  title: z.string(),
  decision: z.enum(['rejected', 'info_requested']),
  reason: z.string().nullable(),
  decidedAt: z.string(),
  deciderName: z.string(),
});

export const coachingFinding = z.object({
  kind: z.enum(FINDING_KIND_VALUES),
  title: z.string(),
  detail: z.string(),
  requests: z.array(z.object({ id: z.string(), reference: z.string(), title: z.string() })),
});

export const coachingTip = z.object({
  title: z.string(),
  body: z.string(),
  /** What the tip rests on: "3 of your requests", the rule's name… */
  basis: z.string(),
});

export const coaching = z.object({
  from: z.string(),
  to: z.string(),
  months: z.array(coachingMonth),
  findings: z.array(coachingFinding),
  returned: z.array(coachingReturned),
  spend: z.object({
    currency: z.string(),
    mine: z.string(),
    /** The median of the department's people's spend over the same months (null: see why). */
    departmentMedian: z.string().nullable(),
    /**
     * Why there is no median: the caller has no department, or fewer than
     * COACHING_MIN_PEERS people in it have spend (over so few, a median is one colleague's own figure).
     */
    departmentMedianWithheld: z.enum(COACHING_MEDIAN_WITHHELD_VALUES).nullable(),
    departmentName: z.string().nullable(),
    departmentPeople: z.number().int(),
  }),
  tips: z.array(coachingTip),
});
export type Coaching = z.infer<typeof coaching>;
