// E-mail delivery from the outbox (rows written by notify in the transaction of what they
// announce). Each row is claimed in a short transaction with FOR UPDATE SKIP LOCKED and leased
// (next attempt pushed out), then sent outside any transaction, so several instances never send
// the same message and a slow SMTP server never holds a database connection. A failure retries
// with the shared backoff (contracts/backoff.ts); after MAX_ATTEMPTS the row is marked failed with the last error.
import { and, asc, eq, lte, sql } from 'drizzle-orm';
import { backoffDelayMs, type BackoffPolicy } from '@outlay/contracts/backoff';
import { emailOutbox, type Db } from '@outlay/db';
import type { AppDeps } from '../lib/context.ts';

export const MAX_ATTEMPTS = 5;
/** A claimed row that was neither sent nor failed (instance died mid-send) is due again after this. */
const LEASE_MS = 5 * 60_000;
const BATCH = 20;

/** Delay before attempt n + 1 after n failures: about 1, 2, 4, 8… minutes (jittered), at most an hour. */
export const EMAIL_RETRY: BackoffPolicy = { baseMs: 60_000, capMs: 60 * 60_000 };

export interface EmailResult {
  sent: number;
  retried: number;
  failed: number;
}

type OutboxRow = typeof emailOutbox.$inferSelect;

async function claim(db: Db, now: Date): Promise<OutboxRow[]> {
  return db.transaction(async (raw) => {
    const tx = raw as unknown as Db;
    const rows = await tx
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.status, 'queued'), lte(emailOutbox.nextAttemptAt, now)))
      .orderBy(asc(emailOutbox.nextAttemptAt))
      .limit(BATCH)
      .for('update', { skipLocked: true });
    if (rows.length === 0) return [];
    const lease = new Date(now.getTime() + LEASE_MS);
    await tx
      .update(emailOutbox)
      .set({ attempts: sql`${emailOutbox.attempts} + 1`, nextAttemptAt: lease })
      .where(
        sql`${emailOutbox.id} IN (${sql.join(
          rows.map((r) => sql`${r.id}::uuid`),
          sql`, `,
        )})`,
      );
    return rows.map((r) => ({ ...r, attempts: r.attempts + 1 }));
  });
}

/** Sends what is due at `now`; without a mailer (no SMTP_URL) does nothing. */
export async function deliverEmail(deps: Pick<AppDeps, 'db' | 'mailer'>, now: Date): Promise<EmailResult> {
  const result: EmailResult = { sent: 0, retried: 0, failed: 0 };
  const mailer = deps.mailer;
  if (!mailer) return result;
  for (let round = 0; round < 10; round++) {
    const rows = await claim(deps.db, now);
    if (rows.length === 0) break;
    for (const row of rows) {
      try {
        await mailer.send({
          to: row.toAddress,
          subject: row.subject,
          text: row.body,
          attachments: row.attachments.map((a) => ({
            filename: a.filename,
            contentType: a.contentType,
            content: Buffer.from(a.contentBase64, 'base64'),
          })),
        });
        await deps.db
          .update(emailOutbox)
          .set({ status: 'sent', sentAt: now, lastError: null })
          .where(eq(emailOutbox.id, row.id));
        result.sent++;
      } catch (err) {
        const message = (err instanceof Error ? err.message : String(err)).slice(0, 1000);
        if (row.attempts >= MAX_ATTEMPTS) {
          await deps.db
            .update(emailOutbox)
            .set({ status: 'failed', lastError: message })
            .where(eq(emailOutbox.id, row.id));
          result.failed++;
        } else {
          await deps.db
            .update(emailOutbox)
            .set({
              lastError: message,
              nextAttemptAt: new Date(now.getTime() + backoffDelayMs(row.attempts, EMAIL_RETRY)),
            })
            .where(eq(emailOutbox.id, row.id));
          result.retried++;
        }
      }
    }
    if (rows.length < BATCH) break;
  }
  return result;
}
