import { WEBHOOK_SECRET_GRACE_HOURS } from '@outlay/contracts';
import type { DbHandle } from '@outlay/db';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AppDeps } from './context.ts';
import { createEventBus, type EventBus } from './events.ts';
import { createSmtpMailer, type Mailer } from './mailer.ts';
import { createMetrics } from './metrics.ts';
import { setEmailOutboxEnabled, setEmailPublicUrl } from './notify.ts';
import { DEFAULT_PUBLIC_URL } from './public-url.ts';
import { LocalFileStorage, type FileStorage } from './storage.ts';
import { keysFrom, loadSigningSecret } from './secrets.ts';
import { TokenSigner } from './tokens.ts';

export async function createDeps(
  handle: DbHandle,
  options: {
    jwtSecret?: string;
    clock?: () => Date;
    dataDir?: string;
    storage?: FileStorage;
    /** Backup folder; by default `backups` in the data directory. */
    backupDir?: string;
    /** A bus to use; by default one listening on this database handle. */
    events?: EventBus;
    /** A mailer to use; by default an SMTP mailer when smtpUrl is given, else none. */
    mailer?: Mailer;
    smtpUrl?: string;
    mailFrom?: string;
    /** Collect Prometheus metrics (only when something serves them). */
    metrics?: boolean;
    /** The optional wording model for the Copilot. */
    llm?: AppDeps['llm'];
    /** Hours a rotated-out webhook secret still signs; by default WEBHOOK_SECRET_GRACE_HOURS (24). */
    webhookSecretGraceHours?: number;
    /** Where Outlay is reached (PUBLIC_URL); by default http://localhost:3000. */
    publicUrl?: string;
  } = {},
): Promise<AppDeps> {
  const keys = keysFrom(await loadSigningSecret(handle.db, options.jwtSecret));
  const mailer = options.mailer ?? (options.smtpUrl ? createSmtpMailer(options.smtpUrl, options.mailFrom) : undefined);
  // Without a mailer, notify queues no e-mail at all.
  setEmailOutboxEnabled(Boolean(mailer));
  const publicUrl = (options.publicUrl ?? DEFAULT_PUBLIC_URL).replace(/\/+$/, '');
  setEmailPublicUrl(publicUrl);
  return {
    db: handle.db,
    dbKind: handle.kind,
    signer: new TokenSigner(keys.jwt),
    totpKey: keys.totp,
    bankKey: keys.bank,
    clock: options.clock ?? (() => new Date()),
    // Without a data directory (tests), a private temporary folder.
    storage:
      options.storage ??
      new LocalFileStorage(
        options.dataDir
          ? path.join(options.dataDir, 'attachments')
          : mkdtempSync(path.join(os.tmpdir(), 'outlay-files-')),
      ),
    backupDir:
      options.backupDir ??
      (options.dataDir
        ? path.join(options.dataDir, 'backups')
        : mkdtempSync(path.join(os.tmpdir(), 'outlay-backups-'))),
    events: options.events ?? createEventBus(handle),
    mailer,
    poolStats: handle.poolStats,
    metrics: options.metrics ? createMetrics(handle) : undefined,
    llm: options.llm,
    webhookSecretGraceHours: options.webhookSecretGraceHours ?? WEBHOOK_SECRET_GRACE_HOURS,
    publicUrl,
  };
}
