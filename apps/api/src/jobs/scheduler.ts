import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../lib/context.ts';
import { databaseUnavailable } from '../lib/db-errors.ts';
import { runDueWork } from './due-work.ts';
import { queueDigests } from './digest.ts';
import { deliverEmail } from './email.ts';
import { sendScheduledReports } from '../modules/reports/reports.scheduled.ts';

export interface JobRunner {
  stop(): Promise<void>;
}

/**
 * Runs the approval engine's due work, the e-mail digests and the e-mail outbox every JOB_INTERVAL_MS (default 60 s). A pass never
 * overlaps the previous one; failures are logged and the next pass tries again. `stop()`
 * cancels the timer and waits for a pass in progress.
 */
export function startJobs(deps: AppDeps, log: FastifyBaseLogger): JobRunner {
  const interval = Number(process.env.JOB_INTERVAL_MS ?? 60_000);
  let running: Promise<void> | null = null;
  let stopped = false;
  // A database that is away or saturated is an outage the next pass retries, not a bug.
  const failed = (err: unknown, job: string, message: string) => {
    if (databaseUnavailable(err)) log.warn({ err, job }, `${message}: database unavailable, retrying next pass`);
    else log.error({ err, job }, message);
  };

  const pass = () => {
    if (stopped || running) return;
    running = (async () => {
      try {
        const result = await runDueWork(deps, deps.clock());
        if (result.reminded || result.escalated || result.delegationsStarted || result.delegationsEnded) log.info({ job: 'due-work', ...result }, 'due work done');
      } catch (err) {
        failed(err, 'due-work', 'due work failed');
      }
      // Daily/weekly digests into the outbox, sent just below (only when SMTP_URL is configured).
      try {
        const digests = await queueDigests(deps, deps.clock());
        if (digests.processed) log.info({ job: 'digest', ...digests }, 'digests done');
      } catch (err) {
        failed(err, 'digest', 'digests failed');
      }
      // Scheduled reports into the outbox as attachments, sent just below (only when SMTP_URL is configured).
      try {
        const reports = await sendScheduledReports(deps, deps.clock(), log);
        if (reports.processed) log.info({ job: 'scheduled-reports', ...reports }, 'scheduled reports done');
      } catch (err) {
        failed(err, 'scheduled-reports', 'scheduled reports failed');
      }
      // E-mail notifications from the outbox (only when SMTP_URL is configured).
      try {
        const mail = await deliverEmail(deps, deps.clock());
        if (mail.sent || mail.retried || mail.failed) log.info({ job: 'email', ...mail }, 'e-mail delivery done');
      } catch (err) {
        failed(err, 'email', 'e-mail delivery failed');
      } finally {
        running = null;
      }
    })();
  };

  const timer = Number.isFinite(interval) && interval > 0 ? setInterval(pass, interval) : null;
  timer?.unref();
  return {
    stop: async () => {
      stopped = true;
      if (timer) clearInterval(timer);
      if (running) await running;
    },
  };
}
