import { users } from '@outlay/db';
import {
  ERROR_REPORT_DAYS_KEPT,
  ERROR_REPORT_USERS_SHOWN,
  type ErrorReport,
  type ErrorReportDetail,
  type ErrorReportInput,
  type ErrorReportListQuery,
  type ErrorReportSource,
  type ErrorReportStatus,
  type Paginated,
} from '@outlay/contracts';
import { AppError } from '../../lib/app-error.ts';
import { actorOf, auditChange, writeAudit } from '../../lib/audit.ts';
import { requireAuth, type Ctx } from '../../lib/context.ts';
import { page } from '../../lib/lists.ts';
import { readScopeCondition } from '../../lib/scope.ts';
import { browserOf, fingerprintOf } from './error-reports.fingerprint.ts';
import * as repo from './error-reports.repository.ts';
import { pruneThrottles, relaxedCommit, reserveReport } from './error-reports.throttle.ts';

const PERMISSION = 'errors.read' as const;
const DAY_MS = 86_400_000;

function nameOf(first: string | null, last: string | null): string | null {
  return first === null ? null : `${first} ${last ?? ''}`.trim();
}

function toErrorReport(row: repo.ErrorReportRow): ErrorReport {
  return {
    id: row.id,
    source: row.source as ErrorReportSource,
    status: row.status as ErrorReportStatus,
    message: row.message,
    route: row.route,
    browser: row.browser,
    occurrences: row.occurrences,
    affectedUsers: row.affectedUsers,
    anonymousOccurrences: row.anonymousOccurrences,
    firstSeenAt: row.firstSeenAt.toISOString(),
    lastSeenAt: row.lastSeenAt.toISOString(),
    resolvedAt: row.resolvedAt?.toISOString() ?? null,
    resolvedByName: nameOf(row.resolvedByFirstName, row.resolvedByLastName),
    regressedAt: row.regressedAt?.toISOString() ?? null,
  };
}

function tooMany(retryAfter: number): AppError {
  return new AppError('TOO_MANY_ATTEMPTS', {
    message: `Too many error reports. Try again in ${retryAfter} ${retryAfter === 1 ? 'second' : 'seconds'}.`,
    headers: { 'retry-after': String(retryAfter) },
  });
}

/** Retention runs with the first report of each minute rather than as its own job: it is a couple of indexed deletes. */
async function prune(ctx: Pick<Ctx, 'db' | 'now' | 'log'>): Promise<void> {
  try {
    await repo.pruneOlderThan(ctx.db, new Date(ctx.now.getTime() - ERROR_REPORT_DAYS_KEPT * DAY_MS));
    await pruneThrottles(ctx.db, ctx.now);
  } catch (error) {
    ctx.log.warn({ err: error }, 'could not prune old error reports');
  }
}

/**
 * Records an occurrence in its group. A group that was resolved comes back as `regressed`,
 * with an audit event saying so (the system reopened it, nobody clicked).
 */
export async function recordOccurrence(ctx: Pick<Ctx, 'db' | 'now'>, occurrence: repo.Occurrence): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await relaxedCommit(tx);
    const { id, regressed } = await repo.recordOccurrence(tx, occurrence);
    if (regressed) {
      await writeAudit(
        tx,
        {
          actorId: null,
          action: 'error_report.regressed',
          entityType: 'error_report',
          entityId: id,
          before: { status: 'resolved' },
          after: { status: 'regressed' },
        },
        ctx.now,
      );
    }
  });
}

/** `POST /api/error-reports`: from the web app, signed in or not (the sign-in page can crash too). */
export async function report(ctx: Ctx, input: ErrorReportInput): Promise<void> {
  const userId = ctx.auth?.userId ?? null;
  const gate = await reserveReport(ctx.db, { userId, ip: ctx.ip }, ctx.now);
  if (gate.retryAfter !== null) throw tooMany(gate.retryAfter);
  const stack = input.stack ?? null;
  const userAgent = input.userAgent ?? ctx.userAgent;
  await recordOccurrence(ctx, {
    fingerprint: fingerprintOf('client', input.message, stack),
    source: 'client',
    message: input.message,
    route: input.route,
    browser: browserOf(userAgent),
    stack,
    componentStack: input.componentStack ?? null,
    userAgent,
    userId,
    at: ctx.now,
  });
  if (gate.windowOpened) await prune(ctx);
}

export async function listErrorReports(ctx: Ctx, query: ErrorReportListQuery): Promise<Paginated<ErrorReport>> {
  requireAuth(ctx);
  const { rows, total } = await repo.findErrorReports(ctx.db, query);
  return page(rows.map(toErrorReport), total, query);
}

export async function getErrorReport(ctx: Ctx, id: string): Promise<ErrorReportDetail> {
  const auth = requireAuth(ctx);
  const row = await repo.errorReportById(ctx.db, id);
  if (!row) throw new AppError('NOT_FOUND', { message: 'Error report not found' });
  // Counts are the group's; names are only those of people the caller may see.
  const scope = readScopeCondition(auth, PERMISSION, {
    organizationId: users.organizationId,
    departmentId: users.departmentId,
    ownerId: users.id,
  });
  const since = new Date(ctx.now.getTime() - (ERROR_REPORT_DAYS_KEPT - 1) * DAY_MS).toISOString().slice(0, 10);
  const [people, days] = await Promise.all([
    repo.affectedUsers(ctx.db, id, scope, ERROR_REPORT_USERS_SHOWN),
    repo.occurrenceDays(ctx.db, id, since),
  ]);
  return {
    ...toErrorReport(row),
    fingerprint: row.fingerprint,
    stack: row.stack,
    componentStack: row.componentStack,
    userAgent: row.userAgent,
    users: people.map((p) => ({
      userId: p.userId,
      name: `${p.firstName} ${p.lastName}`.trim(),
      username: p.username,
      occurrences: p.occurrences,
      lastSeenAt: p.lastSeenAt.toISOString(),
      browser: p.browser,
    })),
    days: days.map((d) => ({ day: d.day, occurrences: d.occurrences })),
  };
}

async function changeStatus(ctx: Ctx, id: string, to: 'resolved' | 'open'): Promise<ErrorReportDetail> {
  const auth = requireAuth(ctx);
  const current = await repo.errorReportById(ctx.db, id);
  if (!current) throw new AppError('NOT_FOUND', { message: 'Error report not found' });
  const from = to === 'resolved' ? (['open', 'regressed'] as const) : (['resolved'] as const);
  await ctx.db.transaction(async (tx) => {
    const changed = await repo.setStatus(tx, id, from, {
      status: to,
      resolvedAt: to === 'resolved' ? ctx.now : null,
      resolvedById: to === 'resolved' ? auth.userId : null,
    });
    if (!changed) {
      throw new AppError('CONFLICT', {
        message:
          to === 'resolved'
            ? 'This error is already resolved'
            : 'This error is not resolved; only a resolved error can be reopened',
      });
    }
    await auditChange(tx, actorOf(ctx), {
      action: to === 'resolved' ? 'error_report.resolved' : 'error_report.reopened',
      entityType: 'error_report',
      entityId: id,
      before: { status: current.status },
      after: { status: to },
      metadata: { message: current.message.slice(0, 200), source: current.source },
    });
  });
  return getErrorReport(ctx, id);
}

/** Marks a group fixed; if it happens again it comes back as regressed. */
export function resolveErrorReport(ctx: Ctx, id: string): Promise<ErrorReportDetail> {
  return changeStatus(ctx, id, 'resolved');
}

export function reopenErrorReport(ctx: Ctx, id: string): Promise<ErrorReportDetail> {
  return changeStatus(ctx, id, 'open');
}
