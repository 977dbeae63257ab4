// The AI assistants that run on the server with no network (docs/product.md §3.14 "AI assistants"): typed or
// spoken expense entry (/voice-to-expense) and the Copilot (/executive-ai-copilot).
import { z } from 'zod';
import { isoDate, text } from './primitives.ts';
import { SCOPES } from './permissions.ts';

// --- POST /api/ai/parse-expense ------------------------------------------------------------------

export const PARSE_EXPENSE_MAX_LENGTH = 500;

export const parseExpenseInput = z.object({
  text: text
    .trim()
    .min(1, 'Say or type what you spent')
    .max(PARSE_EXPENSE_MAX_LENGTH, `At most ${PARSE_EXPENSE_MAX_LENGTH} characters`),
  /** The day relative dates ("yesterday", "last Friday") are counted from; the server's date in UTC when absent. */
  today: isoDate.optional(),
});
export type ParseExpenseInput = z.infer<typeof parseExpenseInput>;

const namedRef = z.object({ id: z.string(), name: z.string() });

export const parsedExpense = z.object({
  /** Decimal string; null when the sentence names no amount (never invented). */
  amount: z.string().nullable(),
  /** ISO 4217; the caller's organization's currency when the sentence names none. */
  currency: z.string(),
  /** YYYY-MM-DD; `today` when the sentence names no date. */
  date: z.string(),
  category: namedRef.nullable(),
  /** Only among the vendors the caller may raise a request with. */
  vendor: namedRef.nullable(),
  /** The sentence without the amount and the date, as a request title. */
  description: z.string(),
});
export type ParsedExpense = z.infer<typeof parsedExpense>;

// --- POST /api/ai/copilot ------------------------------------------------------------------------

export const COPILOT_QUESTION_MAX_LENGTH = 500;

export const COPILOT_CONTEXT_MAX = 10;

const question = text
  .trim()
  .min(1, 'Ask a question')
  .max(COPILOT_QUESTION_MAX_LENGTH, `At most ${COPILOT_QUESTION_MAX_LENGTH} characters`);

export const copilotInput = z.object({
  question,
  /**
   * Optional: the earlier questions of this conversation, oldest first. A follow-up ("and last
   * quarter?") is read against them; the server keeps no conversation between calls, so any
   * instance answers any question.
   */
  context: z.array(question).max(COPILOT_CONTEXT_MAX, `At most ${COPILOT_CONTEXT_MAX} earlier questions`).optional(),
});
export type CopilotInput = z.infer<typeof copilotInput>;

/** The kinds of question the Copilot understands; anything else is answered with this list. */
export const COPILOT_QUESTION_KINDS = [
  {
    kind: 'spend',
    label: 'Spend by organization, category, department, vendor or month',
    example: 'How much did Meridian Energy spend on travel last quarter?',
  },
  {
    kind: 'top',
    label: 'Top N organizations, categories, departments or vendors by spend',
    example: 'Top 5 vendors this year',
  },
  {
    kind: 'compare',
    label: 'Spend compared between two periods',
    example: 'Compare spend this quarter with last quarter',
  },
  {
    kind: 'status',
    label: 'Counts and averages of requests by status',
    example: 'How many requests by status this year?',
  },
  {
    kind: 'budgets',
    label: 'Budget lines in force above a share of their budget',
    example: 'Which budgets are above 90%?',
  },
  { kind: 'queue', label: 'What waits for your approval', example: 'What is waiting for my approval?' },
  { kind: 'payroll', label: 'Payroll cost by subsidiary', example: 'Compare payroll cost by subsidiary this year' },
  {
    kind: 'cycle',
    label: 'Approval cycle times by step and approver',
    example: 'What are the approval cycle times this quarter?',
  },
] as const;
export type CopilotQuestionKind = (typeof COPILOT_QUESTION_KINDS)[number]['kind'];

export const copilotColumn = z.object({
  label: z.string(),
  /** Figures align to the end. */
  align: z.enum(['start', 'end']),
});
export const copilotRow = z.object({
  /** As people read them: money with its currency, counts, percentages. */
  cells: z.array(z.string()),
  /** Where the row's record or screen is, when it has one. */
  href: z.string().nullable(),
});
export const copilotTable = z.object({ columns: z.array(copilotColumn), rows: z.array(copilotRow) });
export type CopilotTable = z.infer<typeof copilotTable>;

/** A bar chart (one bar per point) or a month series; values are exact decimal strings. */
export const copilotChart = z.object({
  kind: z.enum(['bar', 'months']),
  title: z.string(),
  currency: z.string().nullable(),
  points: z.array(
    z.object({
      /** A month series' label is its YYYY-MM. */
      label: z.string(),
      value: z.string(),
      /** A month series of spend: the approved (not yet paid) and paid parts of `value`. */
      approved: z.string().optional(),
      paid: z.string().optional(),
    }),
  ),
});
export type CopilotChart = z.infer<typeof copilotChart>;

export const copilotLink = z.object({ label: z.string(), href: z.string() });

/**
 * What a figure was computed over: the caller's own reach narrowed by the question's filters (a
 * department head's "Meridian Logistics" is their department of it, not the organization).
 */
export const copilotScope = z.object({ level: z.enum(SCOPES), label: z.string() });
export type CopilotScope = z.infer<typeof copilotScope>;

export const copilotAnswer = z.object({
  answer: z.string(),
  /** Set on answers with spend or request figures. */
  scope: copilotScope.optional(),
  table: copilotTable.optional(),
  chart: copilotChart.optional(),
  links: z.array(copilotLink),
});
export type CopilotAnswer = z.infer<typeof copilotAnswer>;
