import path from 'node:path';
import {
  acquireDataDirLock,
  createDb,
  DataDirLockedError,
  DEMO_PASSWORD,
  DEMO_TEMP_PASSWORD,
  DEMO_USERS,
  isEmpty,
  migrate,
  seedDemo,
} from '@outlay/db';
import { buildApp, loggerOptions } from './app.ts';
import { loadConfig } from './config.ts';
import { linkAuditRows } from './lib/audit.ts';
import { encrypt } from './lib/crypto.ts';
import { createDeps } from './lib/deps.ts';
import { startJobs, type JobRunner } from './jobs/scheduler.ts';
import { buildMetricsApp } from './plugins/metrics.ts';
import { hashPassword } from './lib/passwords.ts';
import { repoRoot } from './lib/paths.ts';
import { initSetting } from './modules/settings/index.ts';

const SHUTDOWN_DEADLINE_MS = 10_000;

async function main() {
  const config = loadConfig();
  let releaseLock: (() => void) | undefined;
  if (!config.databaseUrl) {
    try {
      releaseLock = acquireDataDirLock(config.dataDir);
    } catch (error) {
      if (error instanceof DataDirLockedError) {
        console.error(`Outlay cannot start: ${error.message}`);
        process.exit(1);
      }
      throw error;
    }
  }

  // The pool recovers from lost connections by itself; they are only worth a line in the log.
  let logConnectionError = (error: Error) => console.warn(`database connection error: ${error.message}`);
  const handle = await createDb(
    config.databaseUrl
      ? { url: config.databaseUrl, pool: config.database, onConnectionError: (error) => logConnectionError(error) }
      : { dataDir: path.join(config.dataDir, 'pglite') },
  );
  await migrate(handle);
  const deps = await createDeps(handle, {
    jwtSecret: config.jwtSecret,
    dataDir: config.dataDir,
    backupDir: config.backupDir,
    smtpUrl: config.smtpUrl,
    mailFrom: config.mailFrom,
    metrics: config.metrics.token !== undefined || config.metrics.port !== undefined,
    llm: config.llm,
    webhookSecretGraceHours: config.webhookSecretGraceHours,
    publicUrl: config.publicUrl,
  });
  let seeded = false;
  if (config.seedDemo && handle.kind === 'pglite' && (await isEmpty(handle.db))) {
    await seedDemo(handle.db, {
      hashPassword,
      seal: (plain) => encrypt(deps.bankKey, plain),
      linkAudit: linkAuditRows,
    });
    seeded = true;
  }
  if (config.authorizedDomains.length > 0) await initSetting(handle.db, 'authorized_domains', config.authorizedDomains);

  const app = await buildApp({
    deps,
    trustProxy: config.trustProxy,
    webDist: config.webDist ?? path.join(repoRoot(), 'apps/web/dist'),
    logger: loggerOptions(config.logLevel),
    // With a metrics port the public port never serves them, token or not.
    metricsToken: config.metrics.port === undefined ? config.metrics.token : undefined,
  });
  const metricsApp =
    deps.metrics && config.metrics.port !== undefined
      ? await buildMetricsApp(deps.metrics, config.metrics.token)
      : undefined;
  logConnectionError = (error) => app.log.warn({ err: error }, 'database connection error');

  let jobs: JobRunner = { stop: async () => {} };
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // In-flight requests may finish; a keep-alive socket that goes idle afterwards is closed at
    // once instead of after its 72 s timeout, and nothing may hold the shutdown past 10 s.
    const sweep = setInterval(() => app.server.closeIdleConnections(), 100);
    const deadline = setTimeout(() => app.server.closeAllConnections(), SHUTDOWN_DEADLINE_MS);
    await jobs.stop().catch(() => {});
    await app.close().catch(() => {});
    await metricsApp?.close().catch(() => {});
    await deps.events.close().catch(() => {});
    deps.mailer?.close();
    clearInterval(sweep);
    clearTimeout(deadline);
    await handle.close().catch(() => {});
    releaseLock?.();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('exit', () => releaseLock?.());

  await app.listen({ port: config.port, host: config.host });
  if (metricsApp) {
    await metricsApp.listen({ port: config.metrics.port, host: config.metrics.host });
    app.log.info({ host: config.metrics.host, port: config.metrics.port }, 'metrics served on the internal port');
  }
  // Background work (escalations, reminders, delegation start and end) runs in every instance;
  // locks in the database make each piece of work happen once.
  jobs = startJobs(deps, app.log);
  if (!config.publicUrlSet) {
    app.log.warn(
      { publicUrl: config.publicUrl },
      'PUBLIC_URL is not set: calendar feeds and e-mails link to http://localhost; set PUBLIC_URL to the address people reach Outlay at',
    );
  }
  const url = `http://localhost:${config.port}`;
  const lines = [
    '',
    `Outlay is running at ${url}`,
    `  database: ${handle.kind === 'pglite' ? `embedded PGlite in ${config.dataDir}` : 'PostgreSQL (DATABASE_URL)'}${seeded ? ' (demo world seeded)' : ''}`,
    `  API docs: ${url}/api/docs`,
  ];
  if (metricsApp) lines.push(`  metrics: http://${config.metrics.host}:${config.metrics.port}/metrics`);
  else if (deps.metrics) lines.push(`  metrics: ${url}/metrics (Authorization: Bearer METRICS_TOKEN)`);
  if (handle.kind === 'pglite' && config.seedDemo) {
    lines.push(`  demo accounts (password ${DEMO_PASSWORD}):`);
    for (const u of DEMO_USERS) {
      lines.push(
        `    ${u.username.padEnd(7)} ${u.role}${u.temporary ? `  (temporary password ${DEMO_TEMP_PASSWORD}; must set a new one)` : ''}`,
      );
    }
  }
  console.log(lines.join('\n'));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
