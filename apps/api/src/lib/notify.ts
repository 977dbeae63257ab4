import { and, eq, inArray } from 'drizzle-orm';
import { requestReference, type WebhookEvent } from '@outlay/contracts';
import {
  emailOutbox,
  notificationPreferences,
  notificationSettings,
  notifications,
  requestEvents,
  spendingRequests,
  users,
  type Db,
} from '@outlay/db';
import { publishEvent } from './events.ts';
import { absoluteUrl, DEFAULT_PUBLIC_URL } from './public-url.ts';
import { enqueueWebhookEvent } from './webhook-outbox.ts';

export interface NotificationInput {
  type: string;
  title: string;
  body?: string | null;
  link?: string | null;
  entityType?: string | null;
  entityId?: string | null;
}

/**
 * Whether notify queues e-mail. Set once at start-up by `createDeps` (true when SMTP_URL is
 * configured): without a mailer nothing is queued, so no outbox grows that nobody sends.
 */
let emailOutboxEnabled = false;
export function setEmailOutboxEnabled(enabled: boolean): void {
  emailOutboxEnabled = enabled;
}

/** NOTIFY payloads stop at 8 kB: a notification event names at most this many users. */
const USERS_PER_EVENT = 100;

/**
 * The PUBLIC_URL e-mail links start with; set once at start-up by `createDeps`. E-mail is read
 * outside the app, so a link in it must be absolute.
 */
let emailPublicUrl = DEFAULT_PUBLIC_URL;
export function setEmailPublicUrl(publicUrl: string): void {
  emailPublicUrl = publicUrl;
}
/** A link for an e-mail body: absolute, from PUBLIC_URL. */
export function emailLink(path: string): string {
  return absoluteUrl(emailPublicUrl, path);
}

function emailBody(input: NotificationInput): string {
  const lines = [input.title];
  if (input.body) lines.push('', input.body);
  if (input.link) lines.push('', `Open in Outlay: ${emailLink(input.link)}`);
  lines.push(
    '',
    '—',
    `You receive this because of your notification settings in Outlay (${emailLink('/notification-settings')}).`,
  );
  return lines.join('\n');
}

/**
 * Notifies users of something, in the transaction of the change it announces, following each
 * user's preferences for the type (no stored preference = both channels on): in-app → a
 * `notifications` row and a `notification` live event (delivered at commit); e-mail → an
 * `email_outbox` row for active users with an address, sent by the job runner — or, for users
 * with a daily/weekly digest, nothing now: the digest job lists the in-app row later.
 */
export async function notify(tx: Db, userIds: readonly string[], input: NotificationInput, now: Date): Promise<void> {
  const unique = [...new Set(userIds)].filter(Boolean);
  if (unique.length === 0) return;
  const prefs = await tx
    .select({
      userId: notificationPreferences.userId,
      inApp: notificationPreferences.inApp,
      email: notificationPreferences.email,
    })
    .from(notificationPreferences)
    .where(and(inArray(notificationPreferences.userId, unique), eq(notificationPreferences.eventType, input.type)));
  const byUser = new Map(prefs.map((p) => [p.userId, p]));
  const inApp = unique.filter((id) => byUser.get(id)?.inApp ?? true);
  let byEmail = emailOutboxEnabled ? unique.filter((id) => byUser.get(id)?.email ?? true) : [];
  if (byEmail.length > 0) {
    // With a daily or weekly digest, e-mail means "in my digest" (jobs/digest.ts reads the
    // in-app rows), so no immediate message — unless in-app is off for the type: then there is no
    // row to put in a digest and the immediate e-mail is the only way the user learns of it.
    const digesting = await tx
      .select({ userId: notificationSettings.userId })
      .from(notificationSettings)
      .where(
        and(inArray(notificationSettings.userId, byEmail), inArray(notificationSettings.digest, ['daily', 'weekly'])),
      );
    const inDigest = new Set(digesting.map((d) => d.userId));
    const withRow = new Set(inApp);
    byEmail = byEmail.filter((id) => !(inDigest.has(id) && withRow.has(id)));
  }

  if (inApp.length > 0) {
    await tx.insert(notifications).values(
      inApp.map((userId) => ({
        userId,
        type: input.type,
        title: input.title,
        body: input.body ?? null,
        link: input.link ?? null,
        entityType: input.entityType ?? null,
        entityId: input.entityId ?? null,
        createdAt: now,
      })),
    );
    for (let i = 0; i < inApp.length; i += USERS_PER_EVENT) {
      await publishEvent(tx, {
        kind: 'notification',
        type: input.type,
        userIds: inApp.slice(i, i + USERS_PER_EVENT),
        requestId: input.entityType === 'spending_request' ? (input.entityId ?? null) : null,
        summary: input.title.slice(0, 300),
        at: now.toISOString(),
      });
    }
  }

  if (byEmail.length > 0) {
    const recipients = await tx
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(and(inArray(users.id, byEmail), eq(users.status, 'active')));
    const addressed = recipients.filter((r) => r.email && r.email.includes('@'));
    if (addressed.length > 0) {
      const body = emailBody(input);
      await tx.insert(emailOutbox).values(
        addressed.map((r) => ({
          userId: r.id,
          toAddress: r.email.trim(),
          subject: input.title.slice(0, 250),
          body,
          status: 'queued' as const,
          nextAttemptAt: now,
          createdAt: now,
        })),
      );
    }
  }
}

/**
 * Queues a plain e-mail to an address outside Outlay's users (a vendor's contact), in the
 * transaction of what it announces. Like notify, nothing is queued without a mailer. Returns
 * whether a row was queued.
 */
export async function queueEmail(
  tx: Db,
  message: { to: string | null | undefined; subject: string; body: string },
  now: Date,
): Promise<boolean> {
  const to = message.to?.trim();
  if (!emailOutboxEnabled || !to || !to.includes('@')) return false;
  await tx.insert(emailOutbox).values({
    userId: null,
    toAddress: to,
    subject: message.subject.slice(0, 250),
    body: message.body,
    status: 'queued',
    nextAttemptAt: now,
    createdAt: now,
  });
  return true;
}

export interface RequestEventInput {
  requestId: string;
  type: string;
  actorId: string | null;
  onBehalfOfId?: string | null;
  stepPosition?: number | null;
  note?: string | null;
  data?: unknown;
}

const ACTIVITY_VERBS: Record<string, string> = {
  created: 'created',
  updated: 'edited',
  submitted: 'submitted',
  resubmitted: 'resubmitted',
  auto_approved: 'auto-approved',
  step_approved: 'approved a step of',
  approved: 'approved',
  rejected: 'rejected',
  info_requested: 'asked for information on',
  cancelled: 'cancelled',
  paid: 'marked paid',
  commented: 'commented on',
  attachment_added: 'attached a file to',
  attachment_removed: 'removed a file from',
  reminded: 'sent a reminder for',
  escalated: 'escalated',
  reassigned: 'reassigned',
  delegated: 'delegated',
  rerouted: 're-routed',
  budget_overrun: 'flagged a budget overrun on',
};

/** One line for the live activity feed, e.g. "Max Müller approved REQ-000123 · Team offsite". */
export function activitySummary(type: string, actorName: string | null, reference: string, title: string): string {
  const verb = ACTIVITY_VERBS[type] ?? type.replace(/_/g, ' ');
  const who = actorName ?? (type === 'auto_approved' ? 'An auto-approval rule' : 'Outlay');
  return `${who} ${verb} ${reference} · ${title}`.slice(0, 300);
}

/** The timeline entries webhooks are told of. */
const REQUEST_WEBHOOK_EVENTS: Record<string, WebhookEvent | undefined> = {
  submitted: 'request.submitted',
  resubmitted: 'request.submitted',
  approved: 'request.approved',
  auto_approved: 'request.approved',
  rejected: 'request.rejected',
  paid: 'request.paid',
};

/**
 * One line of a request's timeline; written in the transaction of the change. Also publishes an
 * `activity` live event (at commit) naming the request's organization, department and requester.
 */
export async function recordRequestEvent(tx: Db, input: RequestEventInput, now: Date): Promise<void> {
  await tx.insert(requestEvents).values({
    requestId: input.requestId,
    type: input.type,
    actorId: input.actorId,
    onBehalfOfId: input.onBehalfOfId ?? null,
    stepPosition: input.stepPosition ?? null,
    note: input.note ?? null,
    data: (input.data ?? null) as object | null,
    createdAt: now,
  });
  const [request] = await tx
    .select({
      organizationId: spendingRequests.organizationId,
      departmentId: spendingRequests.departmentId,
      requesterId: spendingRequests.requesterId,
      seq: spendingRequests.seq,
      title: spendingRequests.title,
    })
    .from(spendingRequests)
    .where(eq(spendingRequests.id, input.requestId));
  if (!request) return;
  let actorName: string | null = null;
  if (input.actorId) {
    const [actor] = await tx
      .select({ firstName: users.firstName, lastName: users.lastName })
      .from(users)
      .where(eq(users.id, input.actorId));
    if (actor) actorName = `${actor.firstName} ${actor.lastName}`.trim();
  }
  const webhookEvent = REQUEST_WEBHOOK_EVENTS[input.type];
  if (webhookEvent) {
    await enqueueWebhookEvent(
      tx,
      webhookEvent,
      {
        requestId: input.requestId,
        reference: requestReference(request.seq),
        title: request.title,
        organizationId: request.organizationId,
        departmentId: request.departmentId,
      },
      now,
    );
  }
  await publishEvent(tx, {
    kind: 'activity',
    type: input.type,
    organizationId: request.organizationId,
    departmentId: request.departmentId,
    userIds: [request.requesterId],
    requestId: input.requestId,
    summary: activitySummary(input.type, actorName, requestReference(request.seq), request.title),
    at: now.toISOString(),
  });
}
