import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../lib/context.ts';
import { databaseUnavailable } from '../lib/db-errors.ts';
import { runDueWork } from './due-work.ts';
import { queueDigests } from './digest.ts';
import { deliverEmail } from './email.ts';
import { sendScheduledReports } from '../modules/reports/index.ts';
import { runScheduledBackups } from '../modules/backups/index.ts';
import { deliverWebhooks } from '../modules/webhooks/index.ts';
import { retrainSuggestionModels } from '../modules/request-suggestions/index.ts';
import { computeStaleFindings } from '../modules/findings/index.ts';
import { pruneLiveEvents } from '../lib/events.ts';

export interface JobRunner {
  stop(): Promise<void>;
}

/** The background jobs, in the order a pass runs them (the `job` of their logs and metrics). */
export const JOB_NAMES = [
  'due-work',
  'digest',
  'scheduled-reports',
  'email',
  'backups',
  'webhooks',
  'request-suggestions',
  'findings',
  'live-events',
] as const;
export type JobName = (typeof JOB_NAMES)[number];

/**
 * One pass: the approval engine's due work, the e-mail digests, the scheduled reports, the
 * e-mail outbox, the scheduled backups, the webhooks, the smart form's models, the findings and
 * the kept live events' pruning. Each job's failure is logged (and counted) and does not stop the others.
 */
export async function runJobPass(deps: AppDeps, log: FastifyBaseLogger): Promise<void> {
  const metrics = deps.metrics;
  const run = async (job: JobName, failure: string, work: () => Promise<void>) => {
    metrics?.jobRuns.inc({ job });
    try {
      await work();
      metrics?.jobLastSuccess.set({ job }, Date.now() / 1000);
    } catch (err) {
      metrics?.jobFailures.inc({ job });
      // A database that is away or saturated is an outage the next pass retries, not a bug.
      if (databaseUnavailable(err)) log.warn({ err, job }, `${failure}: database unavailable, retrying next pass`);
      else log.error({ err, job }, failure);
    }
  };

  await run('due-work', 'due work failed', async () => {
    const result = await runDueWork(deps, deps.clock());
    if (result.reminded || result.escalated || result.delegationsStarted || result.delegationsEnded)
      log.info({ job: 'due-work', ...result }, 'due work done');
  });
  // Daily/weekly digests into the outbox, sent just below (only when SMTP_URL is configured).
  await run('digest', 'digests failed', async () => {
    const digests = await queueDigests(deps, deps.clock());
    if (digests.processed) log.info({ job: 'digest', ...digests }, 'digests done');
  });
  // Scheduled reports into the outbox as attachments, sent just below (only when SMTP_URL is configured).
  await run('scheduled-reports', 'scheduled reports failed', async () => {
    const reports = await sendScheduledReports(deps, deps.clock(), log);
    if (reports.processed) log.info({ job: 'scheduled-reports', ...reports }, 'scheduled reports done');
  });
  // E-mail notifications from the outbox (only when SMTP_URL is configured).
  await run('email', 'e-mail delivery failed', async () => {
    const mail = await deliverEmail(deps, deps.clock());
    if (mail.sent || mail.retried || mail.failed) log.info({ job: 'email', ...mail }, 'e-mail delivery done');
  });
  // Scheduled backups (daily or weekly, claimed by one instance) and their retention.
  await run('backups', 'scheduled backup failed', async () => {
    const backups = await runScheduledBackups(deps, deps.clock(), log);
    if (backups.created || backups.removed) log.info({ job: 'backups', ...backups }, 'scheduled backups done');
  });
  // Outgoing webhooks from their outbox, retried with backoff for a day.
  await run('webhooks', 'webhook delivery failed', async () => {
    const hooks = await deliverWebhooks(deps, deps.clock());
    if (hooks.delivered || hooks.retried || hooks.failed || hooks.refused || hooks.disabled)
      log.info({ job: 'webhooks', ...hooks }, 'webhook delivery done');
  });
  // The smart form's suggestion models, retrained per organization when stale (claimed by one instance).
  await run('request-suggestions', 'retraining request suggestions failed', async () => {
    const models = await retrainSuggestionModels(deps, deps.clock());
    if (models.retrained) log.info({ job: 'request-suggestions', ...models }, 'request suggestion models retrained');
  });
  // Smart Analytics' findings, recomputed per organization when its requests changed or the day did (claimed by one instance).
  await run('findings', 'computing findings failed', async () => {
    const result = await computeStaleFindings(deps, deps.clock());
    if (result.computed) log.info({ job: 'findings', ...result }, 'findings computed');
  });
  // Live events kept for reconnecting streams, dropped after their hour.
  await run('live-events', 'pruning live events failed', async () => {
    const pruned = await pruneLiveEvents(deps.db, deps.clock());
    if (pruned) log.info({ job: 'live-events', pruned }, 'live events pruned');
  });
}

/**
 * Runs a job pass every JOB_INTERVAL_MS (default 60 s). A pass never overlaps the previous
 * one; failures are logged and the next pass tries again. `stop()` cancels the timer and waits
 * for a pass in progress.
 */
export function startJobs(deps: AppDeps, log: FastifyBaseLogger): JobRunner {
  const interval = Number(process.env.JOB_INTERVAL_MS ?? 60_000);
  let running: Promise<void> | null = null;
  let stopped = false;
  // Every job's series exist from the start, so a rate over them is defined before the first failure.
  for (const job of JOB_NAMES) {
    deps.metrics?.jobRuns.inc({ job }, 0);
    deps.metrics?.jobFailures.inc({ job }, 0);
  }

  const pass = () => {
    if (stopped || running) return;
    running = runJobPass(deps, log).finally(() => {
      running = null;
    });
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
