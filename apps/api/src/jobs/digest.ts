// E-mail digests. A user whose digest is 'daily' or 'weekly' gets no immediate e-mail from
// notify; instead, once a period, this step queues ONE `email_outbox` row listing their in-app
// notifications since the last digest whose type has e-mail on for them (no stored preference =
// on). deliverEmail sends it like any other message.
//
// A digest is due at its cron slot in the recipient's time zone (DIGEST_CRON: 07:00 their time
// every day, or every Monday), kept in `nextDigestAt`. Each user is handled in its own short
// transaction: their `notification_settings` row is claimed FOR UPDATE SKIP LOCKED with the "due"
// condition re-checked, the digest is queued, `lastDigestAt` is set to now and `nextDigestAt` to
// the next slot after now (also when there was nothing to send, so the user is not scanned again
// every pass). With several instances, a row another instance holds is skipped and, once it
// commits, no longer due: each digest is made once.
import { and, asc, count, desc, eq, gt, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { emailOutbox, notificationPreferences, notificationSettings, notifications, users, type Db } from '@outlay/db';
import type { AppDeps } from '../lib/context.ts';
import { emailLink } from '../lib/notify.ts';
import { DEFAULT_TIME_ZONE, personTimeZoneColumn } from '../lib/schedules.ts';
import { nextDigestAt } from '../modules/notifications/index.ts';
import { serverFormat } from '@outlay/contracts/format';

/** How far back a first digest looks (one with no earlier digest to start from). */
export const DIGEST_PERIOD_MS = { daily: 24 * 60 * 60_000, weekly: 7 * 24 * 60 * 60_000 } as const;
type DigestFrequency = keyof typeof DIGEST_PERIOD_MS;

/** At most this many notifications are listed in one message (the count covers them all). */
export const DIGEST_MAX_ITEMS = 100;
/** Users handled per pass; the rest are due again at the next pass. */
const USERS_PER_PASS = 500;

export interface DigestResult {
  /** Digest messages queued. */
  queued: number;
  /** Users whose digest came due (queued or not: nothing to report, inactive, no address). */
  processed: number;
}

/** "Nov 16, 2026" (UTC, the shared formatters: no recipient locale is stored). */
export function digestDay(d: Date): string {
  return serverFormat.date(d) ?? '';
}

function digestTime(d: Date): string {
  return `${serverFormat.dateTime(d)} UTC`;
}

export interface DigestItem {
  title: string;
  body: string | null;
  link: string | null;
  createdAt: Date;
}

/** Subject and plain-text body of one digest. `items` oldest first; `total` ≥ items.length. */
export function digestMessage(input: {
  firstName: string;
  frequency: DigestFrequency;
  since: Date;
  items: DigestItem[];
  total: number;
}): {
  subject: string;
  body: string;
} {
  const { items, total } = input;
  const what = `${serverFormat.plural(total, 'notification')} since ${digestDay(input.since)}`;
  const lines: string[] = [];
  lines.push(
    input.firstName ? `Hello ${input.firstName},` : 'Hello,',
    '',
    `Your ${input.frequency} Outlay digest: ${what}.`,
    '',
  );
  for (const item of items) {
    lines.push(`• ${item.title}`);
    const body = item.body?.replace(/\s+/g, ' ').trim();
    if (body) lines.push(`  ${body.length > 300 ? `${body.slice(0, 299)}…` : body}`);
    if (item.link) lines.push(`  ${emailLink(item.link)}`);
    lines.push(`  ${digestTime(item.createdAt)}`, '');
  }
  if (total > items.length)
    lines.push(
      `…and ${serverFormat.number(total - items.length)} earlier. All of them: ${emailLink('/notifications')}`,
      '',
    );
  else lines.push(`All notifications: ${emailLink('/notifications')}`, '');
  lines.push(
    '—',
    `You receive this ${input.frequency} digest because of your notification settings in Outlay (${emailLink('/notification-settings')}).`,
  );
  return { subject: `Outlay: ${what}`.slice(0, 250), body: lines.join('\n') };
}

/** The settings row of one user whose digest is due at `now`, locked; null when none is left. */
async function claimDue(tx: Db, now: Date) {
  const [row] = await tx
    .select({
      userId: notificationSettings.userId,
      digest: notificationSettings.digest,
      lastDigestAt: notificationSettings.lastDigestAt,
    })
    .from(notificationSettings)
    .where(
      and(
        inArray(notificationSettings.digest, ['daily', 'weekly']),
        // No next time yet (a row written without one): due now.
        or(isNull(notificationSettings.nextDigestAt), lte(notificationSettings.nextDigestAt, now)),
      ),
    )
    .orderBy(sql`${notificationSettings.nextDigestAt} asc nulls first`, asc(notificationSettings.userId))
    .limit(1)
    .for('update', { skipLocked: true });
  return row ?? null;
}

/** Handles one due user (if any is left unclaimed); false when there was none. */
async function digestOne(db: Db, now: Date, result: DigestResult): Promise<boolean> {
  return db.transaction(async (raw) => {
    const tx = raw as unknown as Db;
    const due = await claimDue(tx, now);
    if (!due || due.digest === 'off') return false;
    result.processed++;
    const frequency: DigestFrequency = due.digest;
    // A first digest covers at most the last period.
    const since = due.lastDigestAt ?? new Date(now.getTime() - DIGEST_PERIOD_MS[frequency]);

    const [user] = await tx
      .select({
        email: users.email,
        status: users.status,
        firstName: users.firstName,
        timeZone: personTimeZoneColumn(),
      })
      .from(users)
      .where(eq(users.id, due.userId));
    const address = user?.email?.trim() ?? '';
    if (user && user.status === 'active' && address.includes('@')) {
      const emailOn = sql`not exists (select 1 from ${notificationPreferences} where ${notificationPreferences.userId} = ${notifications.userId} and ${notificationPreferences.eventType} = ${notifications.type} and ${notificationPreferences.email} = false)`;
      const window = and(
        eq(notifications.userId, due.userId),
        gt(notifications.createdAt, since),
        lte(notifications.createdAt, now),
        emailOn,
      );
      const [{ total } = { total: 0 }] = await tx.select({ total: count() }).from(notifications).where(window);
      if (total > 0) {
        const newest = await tx
          .select({
            title: notifications.title,
            body: notifications.body,
            link: notifications.link,
            createdAt: notifications.createdAt,
          })
          .from(notifications)
          .where(window)
          .orderBy(desc(notifications.createdAt), desc(notifications.id))
          .limit(DIGEST_MAX_ITEMS);
        const message = digestMessage({ firstName: user.firstName, frequency, since, items: newest.reverse(), total });
        await tx.insert(emailOutbox).values({
          userId: due.userId,
          toAddress: address,
          subject: message.subject,
          body: message.body,
          status: 'queued',
          nextAttemptAt: now,
          createdAt: now,
        });
        result.queued++;
      }
    }
    // The next slot after this pass, in the recipient's zone: a late pass moves no later digest.
    const next = nextDigestAt(frequency, now, user?.timeZone ?? DEFAULT_TIME_ZONE);
    await tx
      .update(notificationSettings)
      .set({ lastDigestAt: now, nextDigestAt: next })
      .where(eq(notificationSettings.userId, due.userId));
    return true;
  });
}

/**
 * Queues the digests due at `now` (run before deliverEmail, which then sends them). Without a
 * mailer (no SMTP_URL) does nothing: lastDigestAt stays, so digests start once e-mail is set up.
 */
export async function queueDigests(deps: Pick<AppDeps, 'db' | 'mailer'>, now: Date): Promise<DigestResult> {
  const result: DigestResult = { queued: 0, processed: 0 };
  if (!deps.mailer) return result;
  for (let i = 0; i < USERS_PER_PASS; i++) {
    if (!(await digestOne(deps.db, now, result))) break;
  }
  return result;
}
