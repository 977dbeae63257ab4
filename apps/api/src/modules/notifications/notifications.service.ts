import {
  NOTIFICATION_EVENT_TYPES,
  type MarkAllReadResult,
  type NotificationItem,
  type NotificationListQuery,
  type NotificationPage,
  type NotificationPreferences,
  type UnreadCount,
  type UpdateNotificationPreferences,
} from '@outlay/contracts';
import type { Db } from '@outlay/db';
import { AppError } from '../../lib/app-error.ts';
import { writeAudit } from '../../lib/audit.ts';
import { requireAuth, type Ctx } from '../../lib/context.ts';
import { page } from '../../lib/lists.ts';
import { personTimeZone } from '../../lib/schedules.ts';
import * as repo from './notifications.repository.ts';
import { nextDigestAt } from './notifications.schedule.ts';

function toItem(row: repo.NotificationRow): NotificationItem {
  return {
    id: row.id,
    type: row.type,
    title: row.title,
    body: row.body,
    link: row.link,
    entityType: row.entityType,
    entityId: row.entityId,
    read: row.readAt !== null,
    readAt: row.readAt ? row.readAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The caller's own notifications; nobody lists anyone else's. */
export async function list(ctx: Ctx, query: NotificationListQuery): Promise<NotificationPage> {
  const auth = requireAuth(ctx);
  const { rows, total } = await repo.listNotifications(ctx.db, auth.userId, query);
  return page(rows.map(toItem), total, query);
}

export async function unread(ctx: Ctx): Promise<UnreadCount> {
  const auth = requireAuth(ctx);
  return { count: await repo.countUnread(ctx.db, auth.userId) };
}

/** Someone else's id is simply not found (404), so ids cannot be probed. */
export async function markRead(ctx: Ctx, id: string): Promise<NotificationItem> {
  const auth = requireAuth(ctx);
  const row = await repo.markRead(ctx.db, auth.userId, id, ctx.now);
  if (!row) throw new AppError('NOT_FOUND', { message: 'Notification not found' });
  return toItem(row);
}

export async function markAllRead(ctx: Ctx): Promise<MarkAllReadResult> {
  const auth = requireAuth(ctx);
  return { updated: await repo.markAllRead(ctx.db, auth.userId, ctx.now) };
}

async function readPreferences(ctx: Ctx, db: Db, userId: string): Promise<NotificationPreferences> {
  const [stored, settings, emailAddress, zone] = await Promise.all([
    repo.preferencesOf(db, userId),
    repo.settingsOf(db, userId),
    repo.emailOf(db, userId),
    personTimeZone(db, userId),
  ]);
  const digest = settings?.digest ?? 'off';
  const byType = new Map(stored.map((p) => [p.eventType, p]));
  return {
    // Without a stored row, both channels are on (the table's defaults).
    preferences: NOTIFICATION_EVENT_TYPES.map((e) => ({
      eventType: e.type,
      label: e.label,
      description: e.description,
      group: e.group,
      inApp: byType.get(e.type)?.inApp ?? true,
      email: byType.get(e.type)?.email ?? true,
    })),
    digest,
    nextDigestAt: digest === 'off' ? null : (settings?.nextDigestAt?.toISOString() ?? null),
    digestTimeZone: zone,
    emailEnabled: Boolean(ctx.mailer),
    emailAddress,
  };
}

export async function getPreferences(ctx: Ctx): Promise<NotificationPreferences> {
  const auth = requireAuth(ctx);
  return readPreferences(ctx, ctx.db, auth.userId);
}

export async function updatePreferences(
  ctx: Ctx,
  input: UpdateNotificationPreferences,
): Promise<NotificationPreferences> {
  const auth = requireAuth(ctx);
  return ctx.db.transaction(async (raw) => {
    const tx = raw as unknown as Db;
    const before = await readPreferences(ctx, tx, auth.userId);
    if (input.preferences) await repo.upsertPreferences(tx, auth.userId, input.preferences, ctx.now);
    if (input.digest) {
      const zone = await personTimeZone(tx, auth.userId);
      await repo.upsertDigest(tx, auth.userId, input.digest, ctx.now, nextDigestAt(input.digest, ctx.now, zone));
    }
    const after = await readPreferences(ctx, tx, auth.userId);
    const compact = (p: NotificationPreferences) => ({
      digest: p.digest,
      preferences: Object.fromEntries(p.preferences.map((x) => [x.eventType, { inApp: x.inApp, email: x.email }])),
    });
    await writeAudit(
      tx,
      {
        actorId: auth.userId,
        action: 'notification_preferences.updated',
        entityType: 'user',
        entityId: auth.userId,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        before: compact(before),
        after: compact(after),
      },
      ctx.now,
    );
    return after;
  });
}
