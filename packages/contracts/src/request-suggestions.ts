// Request suggestions (docs/product.md §3.3 /smart-form): while the requester describes a spend, the
// categories, vendors and departments their organization's past requests point to, ranked, with
// the probability the learned model gives each.
import { z } from 'zod';
import { text } from './primitives.ts';

/** How many of each kind an answer holds at most. */
export const REQUEST_SUGGESTIONS_LIMIT = 3;
/** The longest text the model reads (a title and a description). */
export const REQUEST_SUGGESTION_TEXT_MAX = 4000;

export const requestSuggestionsQuery = z.object({
  /** The caller's organization (the one the request is raised in); omitted means the caller's. */
  organizationId: z.uuid('Choose an organization').optional(),
  text: text
    .trim()
    .min(1, 'Describe the spend to get suggestions')
    .max(
      REQUEST_SUGGESTION_TEXT_MAX,
      `Describe the spend in at most ${REQUEST_SUGGESTION_TEXT_MAX.toLocaleString('en-US')} characters`,
    ),
});
export type RequestSuggestionsQuery = z.infer<typeof requestSuggestionsQuery>;

export const requestSuggestion = z.object({
  id: z.string(),
  name: z.string(),
  /** The code of a category or department; null for vendors. */
  code: z.string().nullable(),
  /** 0..1, from the model, among the choices the caller may use. */
  probability: z.number().min(0).max(1),
});
export type RequestSuggestion = z.infer<typeof requestSuggestion>;

export const requestSuggestions = z.object({
  organizationId: z.string(),
  categories: z.array(requestSuggestion),
  vendors: z.array(requestSuggestion),
  departments: z.array(requestSuggestion),
  /** Whether the caller's own past requests weighed in (false: organization-wide only). */
  personal: z.boolean(),
  /** How many past requests the model learned from, and when. */
  trainedOn: z.number().int().nonnegative(),
  trainedAt: z.string().nullable(),
});
export type RequestSuggestions = z.infer<typeof requestSuggestions>;
