// Feature suggestions (docs/product.md §3.15 /feature-suggestions): anyone submits, votes once and
// comments; holders of feedback.manage set the status and the author is told.
import { z } from 'zod';
import { exportQuery, listQuery, paginated } from './lists.ts';
import { text } from './primitives.ts';

export const FEATURE_SUGGESTION_STATUS_VALUES = ['open', 'under_review', 'planned', 'done', 'declined'] as const;
export type FeatureSuggestionStatus = (typeof FEATURE_SUGGESTION_STATUS_VALUES)[number];
export const featureSuggestionStatus = z.enum(FEATURE_SUGGESTION_STATUS_VALUES);

export const FEATURE_SUGGESTION_STATUS_LABELS: Record<FeatureSuggestionStatus, string> = {
  open: 'New',
  under_review: 'Under review',
  planned: 'Planned',
  done: 'Done',
  declined: 'Declined',
};

export const FEATURE_SUGGESTION_SORTS = ['votes', 'createdAt', 'title', 'status', 'comments'] as const;

export const featureSuggestion = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  status: featureSuggestionStatus,
  statusNote: z.string().nullable(),
  statusChangedAt: z.string().nullable(),
  authorId: z.string(),
  authorName: z.string(),
  votes: z.number().int(),
  comments: z.number().int(),
  /** Whether the caller has voted for it. */
  voted: z.boolean(),
  createdAt: z.string(),
});
export type FeatureSuggestion = z.infer<typeof featureSuggestion>;

export const featureSuggestionComment = z.object({
  id: z.string(),
  authorId: z.string(),
  authorName: z.string(),
  body: z.string(),
  createdAt: z.string(),
});
export type FeatureSuggestionComment = z.infer<typeof featureSuggestionComment>;

export const featureSuggestionDetail = featureSuggestion.extend({ commentList: z.array(featureSuggestionComment) });
export type FeatureSuggestionDetail = z.infer<typeof featureSuggestionDetail>;

const filters = {
  status: featureSuggestionStatus.optional(),
  /** `true`: only the caller's own suggestions. */
  mine: z.enum(['true', 'false']).optional(),
};
export const featureSuggestionListQuery = listQuery.extend({
  sort: z.enum(FEATURE_SUGGESTION_SORTS).default('votes'),
  order: z.enum(['asc', 'desc']).default('desc'),
  ...filters,
});
export type FeatureSuggestionListQuery = z.infer<typeof featureSuggestionListQuery>;
export const featureSuggestionExportQuery = exportQuery.extend({
  sort: z.enum(FEATURE_SUGGESTION_SORTS).default('votes'),
  order: z.enum(['asc', 'desc']).default('desc'),
  ...filters,
});
export type FeatureSuggestionExportQuery = z.infer<typeof featureSuggestionExportQuery>;

export const featureSuggestionList = paginated(featureSuggestion);
export type FeatureSuggestionList = z.infer<typeof featureSuggestionList>;

export const createFeatureSuggestionInput = z.object({
  title: text
    .trim()
    .min(5, 'The title must be at least 5 characters')
    .max(120, 'The title must be at most 120 characters'),
  description: text
    .trim()
    .min(10, 'Describe the idea in at least 10 characters')
    .max(4000, 'The description must be at most 4,000 characters'),
});
export type CreateFeatureSuggestionInput = z.infer<typeof createFeatureSuggestionInput>;

export const featureSuggestionCommentInput = z.object({
  body: text.trim().min(1, 'Write a comment').max(2000, 'A comment must be at most 2,000 characters'),
});
export type FeatureSuggestionCommentInput = z.infer<typeof featureSuggestionCommentInput>;

export const featureSuggestionStatusInput = z.object({
  status: featureSuggestionStatus,
  note: text.trim().max(500, 'The note must be at most 500 characters').optional(),
});
export type FeatureSuggestionStatusInput = z.infer<typeof featureSuggestionStatusInput>;

export const featureSuggestionVote = z.object({ id: z.string(), voted: z.boolean(), votes: z.number().int() });
export type FeatureSuggestionVote = z.infer<typeof featureSuggestionVote>;
