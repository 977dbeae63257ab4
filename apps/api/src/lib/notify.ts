import { notifications, requestEvents, type Db } from '@outlay/db';

export interface NotificationInput {
  type: string;
  title: string;
  body?: string | null;
  link?: string | null;
  entityType?: string | null;
  entityId?: string | null;
}

/**
 * Stores an in-app notification for each user (the screens come with the notifications
 * issue). Call it in the transaction of the change it announces.
 */
export async function notify(tx: Db, userIds: readonly string[], input: NotificationInput, now: Date): Promise<void> {
  const unique = [...new Set(userIds)];
  if (unique.length === 0) return;
  await tx.insert(notifications).values(
    unique.map((userId) => ({
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

/** One line of a request's timeline; written in the transaction of the change. */
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
}
