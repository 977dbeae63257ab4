// Scheduled reports: each due report is claimed in its own transaction (FOR UPDATE SKIP LOCKED,
// due condition re-checked), run with EACH RECIPIENT's own scope (the owner's reach is not theirs:
// a group-level owner's report to a subsidiary's manager holds that subsidiary only), rendered in
// its format and queued in the e-mail outbox as an attachment, one message per recipient; a
// recipient who may not read reports gets nothing, and that is logged and audited; its next run
// is set, all in that transaction. With several instances, a report another instance holds is skipped and, once that
// commits, no longer due: each run is sent once.
import { and, asc, eq, inArray, lte, ne } from 'drizzle-orm';
import { serverFormat } from '@outlay/contracts/format';
import { customRoles, emailOutbox, savedReports, users, type Db } from '@outlay/db';
import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps, AuthInfo } from '../../lib/context.ts';
import { writeAudit } from '../../lib/audit.ts';
import { emailLink } from '../../lib/notify.ts';
import { authOfPerson, personAccessColumns, type PersonAccess } from '../../lib/person-access.ts';
import { renderReport } from './reports.export.ts';
import { runReport } from './reports.run.ts';
import { nextRunAt } from './reports.schedule.ts';
import { personTimeZone } from '../../lib/schedules.ts';
import { storedDefinition } from './reports.service.ts';

const PERMISSION = 'reports.read' as const;
/** Reports handled per pass; the rest are due again at the next pass. */
const REPORTS_PER_PASS = 100;

export interface ScheduledReportsResult {
  /** Reports whose run came due (sent or not). */
  processed: number;
  /** Messages queued. */
  queued: number;
  /** Recipients not sent a report because they may not read reports (inactive, no address, no permission). */
  refused: number;
  failed: number;
}

interface Person extends PersonAccess {
  id: string;
  email: string;
  firstName: string;
  status: string;
}

async function people(db: Db, ids: string[]): Promise<Person[]> {
  if (ids.length === 0) return [];
  return db
    .select({
      id: users.id,
      email: users.email,
      firstName: users.firstName,
      ...personAccessColumns,
    })
    .from(users)
    .leftJoin(customRoles, eq(customRoles.id, users.customRoleId))
    .where(inArray(users.id, ids));
}

/** What a signed-in session of this person would carry, for running a report with their scope. */
const authOf = (p: Person): AuthInfo => authOfPerson(p, { sessionId: 'scheduled-report' });

/** Why a person may not be sent a report now, or null when they may. */
function refusal(p: Person): 'inactive' | 'no_address' | 'no_access' | null {
  if (p.status !== 'active') return 'inactive';
  if (!p.email.includes('@')) return 'no_address';
  return authOf(p).grants[PERMISSION] ? null : 'no_access';
}

/** People whose report runs select the same rows (lib/scope.ts scopeCondition reads only these). */
function reachKey(p: Person): string {
  const auth = authOf(p);
  const scope = auth.grants[PERMISSION];
  if (scope === 'group') return 'group';
  if (scope === 'organization') return `organization:${auth.organizationId}`;
  if (scope === 'department') return `department:${auth.departmentId}:${auth.organizationId}`;
  return `own:${auth.userId}:${auth.organizationId}`;
}

async function claimDue(tx: Db, now: Date) {
  const [row] = await tx
    .select()
    .from(savedReports)
    .where(and(ne(savedReports.schedule, 'none'), lte(savedReports.nextRunAt, now)))
    .orderBy(asc(savedReports.nextRunAt), asc(savedReports.id))
    .limit(1)
    .for('update', { skipLocked: true });
  return row ?? null;
}

/** Handles one due report; false when none is left unclaimed. */
async function sendOne(db: Db, now: Date, result: ScheduledReportsResult, log?: FastifyBaseLogger): Promise<boolean> {
  type Claimed = { id: string; ownerId: string; schedule: (typeof savedReports.$inferSelect)['schedule'] };
  let claimed: Claimed | null = null;
  try {
    return await db.transaction(async (raw) => {
      const tx = raw as unknown as Db;
      const report = await claimDue(tx, now);
      if (!report) return false;
      claimed = { id: report.id, ownerId: report.ownerId, schedule: report.schedule };
      result.processed++;
      const [owner] = await people(tx, [report.ownerId]);
      // A report whose owner left or lost reports.read is not sent to anyone.
      if (owner && refusal(owner) === null) {
        const def = storedDefinition(report.definition);
        const format = report.scheduleFormat as 'csv' | 'xlsx' | 'pdf';
        const shared = await people(
          tx,
          report.sharedWithUserIds.filter((id) => id !== owner.id),
        );
        // Each recipient's copy is run with their own scope, as their export of the shared report
        // would be; recipients of one reach share one run and one file.
        const files = new Map<
          string,
          {
            run: Awaited<ReturnType<typeof runReport>>;
            attachment: { filename: string; contentType: string; contentBase64: string };
          }
        >();
        const refused: { userId: string; reason: string }[] = [];
        for (const to of [owner, ...shared]) {
          const why = refusal(to);
          if (why) {
            refused.push({ userId: to.id, reason: why });
            continue;
          }
          const key = reachKey(to);
          let copy = files.get(key);
          if (!copy) {
            const run = await runReport(tx, authOf(to), def, now);
            const file = await renderReport({ name: report.name, def, result: run, format, now });
            copy = {
              run,
              attachment: {
                filename: file.filename,
                contentType: file.contentType,
                contentBase64: file.body.toString('base64'),
              },
            };
            files.set(key, copy);
          }
          const { run, attachment } = copy;
          const period = `${serverFormat.month(run.period.from)} – ${serverFormat.month(run.period.to)}`;
          const body = [
            to.firstName ? `Hello ${to.firstName},` : 'Hello,',
            '',
            `Your ${report.schedule} report "${report.name}" (${period}) is attached as ${format.toUpperCase()}.`,
            `Total spend: ${serverFormat.money(run.totals.sum, run.currency)} over ${serverFormat.plural(run.totals.count, 'request')}.`,
            '',
            `It runs with the data you can see. Open it in Outlay: ${emailLink(`/advanced-reporting?report=${report.id}`)}`,
          ].join('\n');
          await tx.insert(emailOutbox).values({
            userId: to.id,
            toAddress: to.email,
            subject: `Outlay report: ${report.name}`.slice(0, 250),
            body,
            attachments: [attachment],
            status: 'queued',
            nextAttemptAt: now,
            createdAt: now,
          });
          result.queued++;
        }
        if (refused.length > 0) {
          result.refused += refused.length;
          log?.warn(
            { job: 'scheduled-reports', reportId: report.id, refused },
            'a scheduled report was not sent to recipients who may not read reports',
          );
          await writeAudit(
            tx,
            {
              actorId: null,
              action: 'report.schedule_recipients_refused',
              entityType: 'saved_report',
              entityId: report.id,
              metadata: { refused, at: now.toISOString() },
            },
            now,
          );
        }
      }
      // The next slot in the owner's zone after this pass: a late pass sends once and moves nothing.
      const next = nextRunAt(report.schedule, now, await personTimeZone(tx, report.ownerId));
      await tx.update(savedReports).set({ lastSentAt: now, nextRunAt: next }).where(eq(savedReports.id, report.id));
      return true;
    });
  } catch (err) {
    if (!claimed) throw err;
    // A report that cannot run (a missing FX rate) waits for its next slot instead of failing every pass.
    const failed = claimed as Claimed;
    const next = nextRunAt(failed.schedule, now, await personTimeZone(db, failed.ownerId));
    await db.update(savedReports).set({ nextRunAt: next }).where(eq(savedReports.id, failed.id));
    result.failed++;
    log?.warn(
      { err, job: 'scheduled-reports', reportId: failed.id },
      'a scheduled report could not run; it waits for its next slot',
    );
    return true;
  }
}

/**
 * Queues the scheduled reports due at `now` (run before deliverEmail, which sends them). Without
 * a mailer (no SMTP_URL) does nothing: the reports stay due and go once e-mail is set up.
 */
export async function sendScheduledReports(
  deps: Pick<AppDeps, 'db' | 'mailer'>,
  now: Date,
  log?: FastifyBaseLogger,
): Promise<ScheduledReportsResult> {
  const result: ScheduledReportsResult = { processed: 0, queued: 0, refused: 0, failed: 0 };
  if (!deps.mailer) return result;
  for (let i = 0; i < REPORTS_PER_PASS; i++) {
    if (!(await sendOne(deps.db, now, result, log))) break;
  }
  return result;
}
