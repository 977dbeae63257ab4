// Webhook delivery from the outbox (rows written in the transaction of the event they report).
// Rows are claimed in a short transaction with FOR UPDATE SKIP LOCKED and leased (next attempt
// pushed out), then sent outside any transaction, so several instances never send one attempt
// twice and a slow receiver never holds a database connection. Each send resolves its host once,
// checks the address (an IP literal too) and connects to that address only.
import http from 'node:http';
import https from 'node:https';
import { and, asc, eq, lte, sql } from 'drizzle-orm';
import { Webhook as Signer } from 'standardwebhooks';
import { backoffDelayMs, type BackoffPolicy } from '@outlay/contracts/backoff';
import {
  WEBHOOK_DISABLE_AFTER_FAILURES,
  WEBHOOK_MESSAGES,
  WEBHOOK_RETRY_HOURS,
  WEBHOOK_TIMEOUT_MS,
} from '@outlay/contracts';
import { users, webhookDeliveries, webhooks, type Db } from '@outlay/db';
import type { AppDeps } from '../../lib/context.ts';
import { notify } from '../../lib/notify.ts';
import { pinnedLookup, resolveDestination } from './webhooks.destinations.ts';
import { allowPrivateDestinations } from './webhooks.repository.ts';
import { openSecret } from './webhooks.secrets.ts';

/** A claimed row neither answered nor recorded (the instance died mid-send) is due again after this. */
const LEASE_MS = 5 * 60_000;
const BATCH = 20;
const RETRY_WINDOW_MS = WEBHOOK_RETRY_HOURS * 3_600_000;

/** Delay before attempt n + 1 after n failures: about 30 s, 1, 2, 4… minutes (jittered), at most an hour. */
export const WEBHOOK_RETRY: BackoffPolicy = { baseMs: 30_000, capMs: 3_600_000 };

export interface WebhookDeliveryResult {
  delivered: number;
  retried: number;
  failed: number;
  /** Not sent: the destination is internal and private destinations are not allowed. */
  refused: number;
  disabled: number;
}

interface Claimed {
  id: string;
  messageId: string;
  webhookId: string;
  userId: string;
  url: string;
  secretSealed: string;
  previousSecretSealed: string | null;
  previousSecretExpiresAt: Date | null;
  payload: unknown;
  attempts: number;
  createdAt: Date;
}

async function claim(db: Db, now: Date): Promise<Claimed[]> {
  return db.transaction(async (raw) => {
    const tx = raw as unknown as Db;
    const rows = await tx
      .select({
        id: webhookDeliveries.id,
        messageId: webhookDeliveries.messageId,
        webhookId: webhookDeliveries.webhookId,
        userId: webhooks.userId,
        url: webhooks.url,
        secretSealed: webhooks.secretSealed,
        previousSecretSealed: webhooks.previousSecretSealed,
        previousSecretExpiresAt: webhooks.previousSecretExpiresAt,
        payload: webhookDeliveries.payload,
        attempts: webhookDeliveries.attempts,
        createdAt: webhookDeliveries.createdAt,
      })
      .from(webhookDeliveries)
      .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
      // A deactivated owner's webhooks wait, as their API keys do.
      .innerJoin(users, and(eq(users.id, webhooks.userId), eq(users.status, 'active')))
      .where(
        and(
          eq(webhookDeliveries.status, 'pending'),
          lte(webhookDeliveries.nextAttemptAt, now),
          eq(webhooks.enabled, true),
        ),
      )
      .orderBy(asc(webhookDeliveries.nextAttemptAt))
      .limit(BATCH)
      .for('update', { of: webhookDeliveries, skipLocked: true });
    if (rows.length === 0) return [];
    await tx
      .update(webhookDeliveries)
      .set({ attempts: sql`${webhookDeliveries.attempts} + 1`, nextAttemptAt: new Date(now.getTime() + LEASE_MS) })
      .where(
        sql`${webhookDeliveries.id} IN (${sql.join(
          rows.map((r) => sql`${r.id}::uuid`),
          sql`, `,
        )})`,
      );
    return rows.map((r) => ({ ...r, attempts: r.attempts + 1 }));
  });
}

interface Answer {
  status: number | null;
  error: string | null;
  durationMs: number;
  /** Nothing was sent: the destination is internal and private destinations are not allowed. */
  refused?: boolean;
}

/**
 * One POST with a deadline; the receiver's body is read and dropped, never stored. The host is
 * resolved here, once, and the connection goes to the address that passed the check: Node calls
 * no lookup for an IP literal, and the pinned lookup answers a name with the checked address.
 */
async function post(
  url: string,
  headers: Record<string, string>,
  body: string,
  allowPrivate: boolean,
): Promise<Answer> {
  const started = performance.now();
  const destination = await resolveDestination(url, allowPrivate);
  if (!destination.ok) {
    const durationMs = Math.round(performance.now() - started);
    if (destination.problem === 'privateAddress')
      return { status: null, error: WEBHOOK_MESSAGES.refusedAtSend, durationMs, refused: true };
    return { status: null, error: WEBHOOK_MESSAGES[destination.problem], durationMs };
  }
  const target = new URL(url);
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    const done = (status: number | null, error: string | null) =>
      resolve({ status, error, durationMs: Math.round(performance.now() - started) });
    const request = client.request(
      target,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'Outlay-Webhooks/1',
        },
        lookup: pinnedLookup(destination.address),
        timeout: WEBHOOK_TIMEOUT_MS,
      },
      (response) => {
        response.resume();
        response.on('end', () => done(response.statusCode ?? null, null));
        response.on('error', (err) => done(response.statusCode ?? null, err.message));
      },
    );
    request.on('timeout', () => request.destroy(new Error(`No answer within ${WEBHOOK_TIMEOUT_MS / 1000} seconds`)));
    request.on('error', (err) => done(null, err.message.slice(0, 500)));
    request.end(body);
  });
}

async function recordFailure(db: Db, row: Claimed, answer: Answer, now: Date, result: WebhookDeliveryResult) {
  const error = answer.error ?? `The receiver answered ${answer.status}`;
  const expired = now.getTime() - row.createdAt.getTime() >= RETRY_WINDOW_MS;
  // A refusal is final: the address will not turn public by waiting, and an administrator who
  // allows private destinations again can redeliver it.
  const status = answer.refused ? 'refused' : expired ? 'failed' : 'pending';
  await db.transaction(async (raw) => {
    const tx = raw as unknown as Db;
    await tx
      .update(webhookDeliveries)
      .set({
        status,
        responseStatus: answer.status,
        durationMs: answer.durationMs,
        error,
        lastAttemptAt: now,
        nextAttemptAt:
          status === 'pending' ? new Date(now.getTime() + backoffDelayMs(row.attempts, WEBHOOK_RETRY)) : null,
      })
      .where(eq(webhookDeliveries.id, row.id));
    const [hook] = await tx
      .update(webhooks)
      .set({ consecutiveFailures: sql`${webhooks.consecutiveFailures} + 1` })
      .where(eq(webhooks.id, row.webhookId))
      .returning({ failures: webhooks.consecutiveFailures, enabled: webhooks.enabled, url: webhooks.url });
    if (hook && hook.enabled && hook.failures >= WEBHOOK_DISABLE_AFTER_FAILURES) {
      // Conditional, so of two instances failing at once only one switches it off and tells the owner.
      const switched = await tx
        .update(webhooks)
        .set({
          enabled: false,
          disabledReason: `Switched off after ${hook.failures} failed attempts in a row: ${error}`.slice(0, 500),
        })
        .where(and(eq(webhooks.id, row.webhookId), eq(webhooks.enabled, true)))
        .returning({ id: webhooks.id });
      if (switched.length > 0) {
        await notify(
          tx,
          [row.userId],
          {
            type: 'webhook_disabled',
            title: 'A webhook was switched off',
            body: `Deliveries to ${hook.url} kept failing (${error}). Fix the receiver, then switch the webhook on again on API Integrations.`,
            link: '/integration-ecosystem',
            entityType: 'webhook',
            entityId: row.webhookId,
          },
          now,
        );
        result.disabled++;
      }
    }
  });
  if (status === 'refused') result.refused++;
  else if (status === 'failed') result.failed++;
  else result.retried++;
}

/**
 * The `webhook-signature` header: `v1,<base64>` with the current secret, and after a rotation,
 * until its grace period ends, a second one with the previous secret (space-separated, as the
 * Standard Webhooks spec allows), so receivers can switch secrets without losing a delivery.
 */
function signatures(totpKey: Buffer, row: Claimed, now: Date, body: string): string {
  const sign = (sealed: string) => new Signer(openSecret(totpKey, sealed)).sign(row.messageId, now, body);
  const current = sign(row.secretSealed);
  if (!row.previousSecretSealed || !row.previousSecretExpiresAt || row.previousSecretExpiresAt <= now) return current;
  return `${current} ${sign(row.previousSecretSealed)}`;
}

/** Sends what is due at `now`. */
export async function deliverWebhooks(
  deps: Pick<AppDeps, 'db' | 'totpKey'>,
  now: Date,
): Promise<WebhookDeliveryResult> {
  const result: WebhookDeliveryResult = { delivered: 0, retried: 0, failed: 0, refused: 0, disabled: 0 };
  const allowPrivate = await allowPrivateDestinations(deps.db);
  for (let round = 0; round < 10; round++) {
    const rows = await claim(deps.db, now);
    if (rows.length === 0) break;
    await Promise.all(
      rows.map(async (row) => {
        const body = JSON.stringify(row.payload);
        const headers = {
          'webhook-id': row.messageId,
          'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
          'webhook-signature': signatures(deps.totpKey, row, now, body),
        };
        const answer = await post(row.url, headers, body, allowPrivate);
        if (answer.status !== null && answer.status >= 200 && answer.status < 300) {
          await deps.db.transaction(async (raw) => {
            const tx = raw as unknown as Db;
            await tx
              .update(webhookDeliveries)
              .set({
                status: 'delivered',
                responseStatus: answer.status,
                durationMs: answer.durationMs,
                error: null,
                lastAttemptAt: now,
                nextAttemptAt: null,
              })
              .where(eq(webhookDeliveries.id, row.id));
            await tx.update(webhooks).set({ consecutiveFailures: 0 }).where(eq(webhooks.id, row.webhookId));
          });
          result.delivered++;
        } else {
          await recordFailure(deps.db, row, answer, now, result);
        }
      }),
    );
    if (rows.length < BATCH) break;
  }
  return result;
}
