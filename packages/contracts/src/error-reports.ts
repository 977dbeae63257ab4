// Schemas for the error inbox (docs/product.md §3.13 /error-reports): what the web app reports, and the
// groups admins read and resolve.
import { z } from 'zod';
import { listQuery, paginated } from './lists.ts';
import { text } from './primitives.ts';
import { ERROR_REPORT_LIMITS } from './error-reports.limits.ts';

/** Where an error happened: the web app in someone's browser, or the API answering 5xx. */
export const ERROR_REPORT_SOURCE_VALUES = ['client', 'server'] as const;
export type ErrorReportSource = (typeof ERROR_REPORT_SOURCE_VALUES)[number];
export const ERROR_REPORT_SOURCE_LABELS: Record<ErrorReportSource, string> = { client: 'Web app', server: 'Server' };

/**
 * `regressed` is a resolved group that happened again: it is open, and says it came back so
 * nobody mistakes it for a new problem or assumes the fix held.
 */
export const ERROR_REPORT_STATUS_VALUES = ['open', 'regressed', 'resolved'] as const;
export type ErrorReportStatus = (typeof ERROR_REPORT_STATUS_VALUES)[number];
export const ERROR_REPORT_STATUS_LABELS: Record<ErrorReportStatus, string> = {
  open: 'Open',
  regressed: 'Regressed',
  resolved: 'Resolved',
};

export { ERROR_REPORT_LIMITS };

const bounded = (max: number, label: string) => text.max(max, `${label} must be at most ${max} characters`);
const optionalBounded = (max: number, label: string) => bounded(max, label).nullish();

/** `POST /api/error-reports`: one uncaught error or render failure from the web app. */
export const errorReportInput = z.object({
  message: bounded(ERROR_REPORT_LIMITS.message, 'Message').trim().min(1, 'Message is required'),
  stack: optionalBounded(ERROR_REPORT_LIMITS.stack, 'Stack'),
  componentStack: optionalBounded(ERROR_REPORT_LIMITS.componentStack, 'Component stack'),
  route: bounded(ERROR_REPORT_LIMITS.route, 'Route')
    .trim()
    .min(1, 'Route is required')
    .regex(/^\//, 'Route must be a path starting with /'),
  userAgent: optionalBounded(ERROR_REPORT_LIMITS.userAgent, 'User agent'),
});
export type ErrorReportInput = z.infer<typeof errorReportInput>;

export const errorReportAccepted = z.object({ accepted: z.literal(true) });

export const errorReport = z.object({
  id: z.string(),
  source: z.enum(ERROR_REPORT_SOURCE_VALUES),
  status: z.enum(ERROR_REPORT_STATUS_VALUES),
  message: z.string(),
  /** The last route it happened on: a path for the web app, a route pattern for the server. */
  route: z.string().nullable(),
  /** The last browser it happened in ("Chrome 131 on Windows"); null for server errors. */
  browser: z.string().nullable(),
  occurrences: z.number().int(),
  affectedUsers: z.number().int(),
  /** Occurrences with nobody signed in (the sign-in page, an expired session). */
  anonymousOccurrences: z.number().int(),
  firstSeenAt: z.string(),
  lastSeenAt: z.string(),
  resolvedAt: z.string().nullable(),
  resolvedByName: z.string().nullable(),
  /** When a resolved group last came back. */
  regressedAt: z.string().nullable(),
});
export type ErrorReport = z.infer<typeof errorReport>;

export const errorReportUser = z.object({
  userId: z.string(),
  name: z.string(),
  username: z.string(),
  occurrences: z.number().int(),
  lastSeenAt: z.string(),
  browser: z.string().nullable(),
});
export type ErrorReportUser = z.infer<typeof errorReportUser>;

export const errorReportDay = z.object({ day: z.string(), occurrences: z.number().int() });
export type ErrorReportDay = z.infer<typeof errorReportDay>;

export const errorReportDetail = errorReport.extend({
  fingerprint: z.string(),
  /** The last occurrence's stack and component stack, as text. */
  stack: z.string().nullable(),
  componentStack: z.string().nullable(),
  userAgent: z.string().nullable(),
  /** The people it happened to, most recent first (at most ERROR_REPORT_USERS_SHOWN). */
  users: z.array(errorReportUser),
  /** Occurrences per day over the last ERROR_REPORT_DAYS_KEPT days, oldest first (days without any are left out). */
  days: z.array(errorReportDay),
});
export type ErrorReportDetail = z.infer<typeof errorReportDetail>;

export const ERROR_REPORT_USERS_SHOWN = 50;
export const ERROR_REPORT_DAYS_KEPT = 90;

export const ERROR_REPORT_SORTS = [
  'lastSeenAt',
  'firstSeenAt',
  'occurrences',
  'affectedUsers',
  'message',
  'status',
] as const;

export const errorReportListQuery = listQuery.extend({
  status: z.enum(ERROR_REPORT_STATUS_VALUES).optional(),
  source: z.enum(ERROR_REPORT_SOURCE_VALUES).optional(),
});
export type ErrorReportListQuery = z.infer<typeof errorReportListQuery>;
export const errorReportList = paginated(errorReport);
export type ErrorReportList = z.infer<typeof errorReportList>;
