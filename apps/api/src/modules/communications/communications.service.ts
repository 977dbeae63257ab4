import {
  CONVERSATION_MAX_MEMBERS,
  mentionedUsernames,
  type Announcement,
  type AnnouncementAudiences,
  type AnnouncementListQuery,
  type AnnouncementPage,
  type CommunicationsUnread,
  type Conversation,
  type ConversationList,
  type CreateAnnouncementInput,
  type CreateConversationInput,
  type Message,
  type MessageListQuery,
  type MessagePage,
  type PersonList,
  type SendMessageInput,
} from '@outlay/contracts';
import type { Db } from '@outlay/db';
import { AppError } from '../../lib/app-error.ts';
import { writeAudit } from '../../lib/audit.ts';
import { requireAuth, type AuthInfo, type Ctx } from '../../lib/context.ts';
import { publishEvent } from '../../lib/events.ts';
import { notify } from '../../lib/notify.ts';
import { requirePermission } from '../../lib/scope.ts';
import * as repo from './communications.repository.ts';

export const CONVERSATION_NOT_FOUND = 'Conversation not found';
const CONVERSATIONS_SHOWN = 100;

function readerOf(auth: AuthInfo): repo.Reader {
  return { userId: auth.userId, organizationId: auth.organizationId, departmentId: auth.departmentId };
}

const nameOf = (r: { firstName: string; lastName: string }) => `${r.firstName} ${r.lastName}`.trim();
const iso = (d: Date | string) => new Date(d).toISOString();

// --- announcements ----------------------------------------------------------------------------

function toAnnouncement(row: repo.AnnouncementRow, viewerId: string): Announcement {
  return {
    id: row.id,
    title: row.title,
    body: row.body,
    audience: row.audience,
    organizationId: row.organizationId,
    organizationName: row.organizationName,
    departmentId: row.departmentId,
    departmentName: row.departmentName,
    authorId: row.authorId,
    authorName: nameOf({ firstName: row.authorFirstName, lastName: row.authorLastName }),
    // One's own announcement is never news to oneself.
    read: row.readAt !== null || row.authorId === viewerId,
    createdAt: iso(row.createdAt),
  };
}

export async function listAnnouncements(ctx: Ctx, query: AnnouncementListQuery): Promise<AnnouncementPage> {
  const auth = requireAuth(ctx);
  const { rows, nextCursor } = await repo.listAnnouncements(ctx.db, {
    reader: readerOf(auth),
    limit: query.limit,
    cursor: query.cursor,
  });
  return { items: rows.map((r) => toAnnouncement(r, auth.userId)), nextCursor };
}

async function getAnnouncement(ctx: Ctx, id: string, db: Db = ctx.db): Promise<Announcement> {
  const auth = requireAuth(ctx);
  const { rows } = await repo.listAnnouncements(db, { reader: readerOf(auth), limit: 1, id });
  if (!rows[0]) throw new AppError('NOT_FOUND', { message: 'Announcement not found' });
  return toAnnouncement(rows[0], auth.userId);
}

/** Whom the caller may address with communications.announce at their scope. */
export async function announcementAudiences(ctx: Ctx): Promise<AnnouncementAudiences> {
  const auth = requireAuth(ctx);
  const scope = requirePermission(auth, 'communications.announce');
  if (scope === 'group') {
    return {
      everyone: true,
      organizations: await repo.organizationsFor(ctx.db, null),
      departments: await repo.departmentsFor(ctx.db, {}),
    };
  }
  if (scope === 'organization' && auth.organizationId) {
    return {
      everyone: false,
      organizations: await repo.organizationsFor(ctx.db, auth.organizationId),
      departments: await repo.departmentsFor(ctx.db, { organizationId: auth.organizationId }),
    };
  }
  if (scope === 'department' && auth.departmentId) {
    return {
      everyone: false,
      organizations: [],
      departments: await repo.departmentsFor(ctx.db, { departmentId: auth.departmentId }),
    };
  }
  return { everyone: false, organizations: [], departments: [] };
}

const OUTSIDE_SCOPE = 'You can only address announcements within your scope';

export async function createAnnouncement(ctx: Ctx, input: CreateAnnouncementInput): Promise<Announcement> {
  const auth = requireAuth(ctx);
  const scope = requirePermission(auth, 'communications.announce');
  let organizationId: string | null = null;
  let departmentId: string | null = null;
  if (input.audience === 'everyone') {
    if (scope !== 'group')
      throw new AppError('FORBIDDEN', {
        message: 'Only group-wide announcers address everyone; choose your organization or department',
      });
  } else if (input.audience === 'organization') {
    const [org] = await repo.organizationsFor(ctx.db, input.organizationId!);
    if (!org)
      throw new AppError('VALIDATION_ERROR', {
        message: 'No such organization',
        details: [{ path: 'organizationId', message: 'No such organization' }],
      });
    if (scope === 'department' || (scope !== 'group' && org.id !== auth.organizationId))
      throw new AppError('FORBIDDEN', { message: OUTSIDE_SCOPE });
    organizationId = org.id;
  } else {
    const [dept] = await repo.departmentsFor(ctx.db, { departmentId: input.departmentId! });
    if (!dept)
      throw new AppError('VALIDATION_ERROR', {
        message: 'No such department',
        details: [{ path: 'departmentId', message: 'No such department' }],
      });
    const allowed =
      scope === 'group' ||
      (scope === 'organization' && dept.organizationId === auth.organizationId) ||
      (scope === 'department' && dept.id === auth.departmentId);
    if (!allowed) throw new AppError('FORBIDDEN', { message: OUTSIDE_SCOPE });
    organizationId = dept.organizationId;
    departmentId = dept.id;
  }
  return ctx.db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const id = await repo.insertAnnouncement(tx, {
      authorId: auth.userId,
      title: input.title,
      body: input.body,
      audience: input.audience,
      organizationId,
      departmentId,
      createdAt: ctx.now,
    });
    await writeAudit(
      tx,
      {
        actorId: auth.userId,
        action: 'announcement.created',
        entityType: 'announcement',
        entityId: id,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        after: { title: input.title, audience: input.audience, organizationId, departmentId },
      },
      ctx.now,
    );
    // The stream hands it to the people it addresses (organization or department, none = everyone).
    await publishEvent(tx, {
      kind: 'announcement',
      type: 'announcement.created',
      organizationId,
      departmentId,
      userIds: [auth.userId],
      summary: input.title.slice(0, 160),
      at: ctx.now.toISOString(),
    });
    return getAnnouncement(ctx, id, tx);
  });
}

export async function markAnnouncementRead(ctx: Ctx, id: string): Promise<Announcement> {
  const auth = requireAuth(ctx);
  await getAnnouncement(ctx, id);
  await repo.markAnnouncementsRead(ctx.db, { userId: auth.userId, ids: [id], now: ctx.now });
  await publishUnreadChanged(ctx, auth.userId);
  return getAnnouncement(ctx, id);
}

export async function markAllAnnouncementsRead(ctx: Ctx): Promise<CommunicationsUnread> {
  const auth = requireAuth(ctx);
  const ids = await repo.unreadAnnouncementIds(ctx.db, readerOf(auth));
  await repo.markAnnouncementsRead(ctx.db, { userId: auth.userId, ids, now: ctx.now });
  await publishUnreadChanged(ctx, auth.userId);
  return unread(ctx);
}

/** The reader's other tabs (on any instance) refresh their counts. */
async function publishUnreadChanged(ctx: Ctx, userId: string, db: Db = ctx.db): Promise<void> {
  await publishEvent(db, { kind: 'message', type: 'read', userIds: [userId], at: ctx.now.toISOString() });
}

// --- unread -----------------------------------------------------------------------------------

export async function unread(ctx: Ctx): Promise<CommunicationsUnread> {
  const auth = requireAuth(ctx);
  const [messages, announcements] = await Promise.all([
    repo.countUnreadMessages(ctx.db, auth.userId),
    repo.countUnreadAnnouncements(ctx.db, readerOf(auth)),
  ]);
  return { messages, announcements };
}

// --- conversations ----------------------------------------------------------------------------

async function conversationsFor(ctx: Ctx, userId: string, id?: string): Promise<Conversation[]> {
  const rows = await repo.conversationsOf(ctx.db, { userId, limit: CONVERSATIONS_SHOWN, id });
  const ids = rows.map((r) => r.id);
  const [members, last, unreadCounts] = await Promise.all([
    repo.membersOf(ctx.db, ids),
    repo.lastMessagesOf(ctx.db, ids),
    repo.unreadByConversation(ctx.db, { userId, conversationIds: ids }),
  ]);
  return rows.map((r) => {
    const lm = last.find((l) => l.conversation_id === r.id);
    return {
      id: r.id,
      kind: r.kind,
      title: r.title,
      members: members
        .filter((m) => m.conversationId === r.id)
        .map((m) => ({ id: m.id, username: m.username, name: nameOf(m) })),
      lastMessage: lm
        ? {
            authorName: nameOf({ firstName: lm.first_name, lastName: lm.last_name }),
            body: lm.body.slice(0, 200),
            createdAt: iso(lm.created_at),
          }
        : null,
      unread: unreadCounts.get(r.id) ?? 0,
      lastActivityAt: iso(r.lastMessageAt),
    };
  });
}

export async function listConversations(ctx: Ctx): Promise<ConversationList> {
  const auth = requireAuth(ctx);
  return { items: await conversationsFor(ctx, auth.userId) };
}

/** A member's view of one conversation; anyone else is told it does not exist. */
export async function getConversation(ctx: Ctx, id: string): Promise<Conversation> {
  const auth = requireAuth(ctx);
  const [c] = await conversationsFor(ctx, auth.userId, id);
  if (!c) throw new AppError('NOT_FOUND', { message: CONVERSATION_NOT_FOUND });
  return c;
}

async function requireMember(ctx: Ctx, conversationId: string, db: Db = ctx.db) {
  const auth = requireAuth(ctx);
  const m = await repo.findMembership(db, { conversationId, userId: auth.userId });
  if (!m) throw new AppError('NOT_FOUND', { message: CONVERSATION_NOT_FOUND });
  return m;
}

/**
 * A direct conversation with one other person (the same one again if it exists: two people have
 * one), or a group with several. Only active people can be added.
 */
export async function createConversation(ctx: Ctx, input: CreateConversationInput): Promise<Conversation> {
  const auth = requireAuth(ctx);
  const others = [...new Set(input.memberIds)].filter((id) => id !== auth.userId);
  if (others.length === 0)
    throw new AppError('VALIDATION_ERROR', {
      message: 'Choose someone other than yourself',
      details: [{ path: 'memberIds', message: 'Choose someone other than yourself' }],
    });
  if (others.length + 1 > CONVERSATION_MAX_MEMBERS)
    throw new AppError('VALIDATION_ERROR', {
      message: `A conversation holds at most ${CONVERSATION_MAX_MEMBERS} people`,
    });
  const found = await repo.activeUsers(ctx.db, others);
  if (found.length !== others.length) {
    throw new AppError('VALIDATION_ERROR', {
      message: 'Some of these people cannot be messaged (unknown or inactive)',
      details: [{ path: 'memberIds', message: 'Choose active people' }],
    });
  }
  const direct = others.length === 1 && !input.title;
  const directKey = direct ? [auth.userId, others[0]!].sort().join(':') : null;
  if (directKey) {
    const existing = await repo.findDirectConversation(ctx.db, directKey);
    if (existing) return getConversation(ctx, existing);
  }
  const id = await ctx.db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const newId = await repo.insertConversation(tx, {
      kind: direct ? 'direct' : 'group',
      title: direct ? null : input.title || null,
      directKey,
      createdById: auth.userId,
      memberIds: [auth.userId, ...others],
      now: ctx.now,
    });
    if (!newId) return null;
    await writeAudit(
      tx,
      {
        actorId: auth.userId,
        action: 'conversation.created',
        entityType: 'conversation',
        entityId: newId,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        after: { kind: direct ? 'direct' : 'group', memberIds: [auth.userId, ...others] },
      },
      ctx.now,
    );
    await publishEvent(tx, {
      kind: 'message',
      type: 'conversation.created',
      userIds: [auth.userId, ...others],
      at: ctx.now.toISOString(),
    });
    return newId;
  });
  // Lost a race to start the same direct conversation: the winner's is the one.
  return getConversation(ctx, id ?? (await repo.findDirectConversation(ctx.db, directKey!))!);
}

function toMessage(row: repo.MessageRow, attachments: Awaited<ReturnType<typeof repo.attachmentsOf>>): Message {
  return {
    id: row.id,
    conversationId: row.conversationId,
    authorId: row.authorId,
    authorName: nameOf({ firstName: row.authorFirstName, lastName: row.authorLastName }),
    body: row.body,
    attachments: attachments
      .filter((a) => a.messageId === row.id)
      .map((a) => ({
        id: a.id,
        fileName: a.fileName,
        contentType: a.contentType,
        size: a.size,
        url: `/api/communications/conversations/${row.conversationId}/attachments/${a.id}`,
      })),
    createdAt: iso(row.createdAt),
  };
}

/** History newest first, by keyset (`cursor` reads on to older messages). */
export async function listMessages(ctx: Ctx, conversationId: string, query: MessageListQuery): Promise<MessagePage> {
  await requireMember(ctx, conversationId);
  const { rows, nextCursor } = await repo.listMessages(ctx.db, {
    conversationId,
    limit: query.limit,
    cursor: query.cursor,
  });
  const attachments = await repo.attachmentsOf(
    ctx.db,
    rows.map((r) => r.id),
  );
  return { items: rows.map((r) => toMessage(r, attachments)), nextCursor };
}

async function getMessage(ctx: Ctx, conversationId: string, id: string, db: Db): Promise<Message> {
  const { rows } = await repo.listMessages(db, { conversationId, limit: 1, id });
  return toMessage(rows[0]!, await repo.attachmentsOf(db, [id]));
}

/** The attachment a message carries, written with it (the bytes are already in storage). */
export interface StoredFile {
  fileName: string;
  contentType: string;
  size: number;
  sha256: string;
  storageKey: string;
}

/**
 * Posts a message: members only. In one transaction: the message, the author's read mark, a
 * notification for each member it @mentions, and a live event for every member (delivered at
 * commit by whichever instance their stream is on).
 */
export async function sendMessage(
  ctx: Ctx,
  conversationId: string,
  input: SendMessageInput,
  file?: StoredFile,
): Promise<Message> {
  const auth = requireAuth(ctx);
  return ctx.db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const membership = await requireMember(ctx, conversationId, tx);
    const row = await repo.insertMessage(tx, {
      conversationId,
      authorId: auth.userId,
      body: input.body,
      createdAt: ctx.now,
    });
    if (file) {
      await repo.insertMessageAttachment(tx, {
        messageId: row.id,
        conversationId,
        ...file,
        uploadedById: auth.userId,
        createdAt: ctx.now,
      });
    }
    const message = await getMessage(ctx, conversationId, row.id, tx);
    const mentioned = (
      await repo.membersByUsername(tx, { conversationId, usernames: mentionedUsernames(input.body) })
    ).filter((m) => m.id !== auth.userId);
    if (mentioned.length > 0) {
      const where = membership.kind === 'group' && membership.title ? ` in ${membership.title}` : '';
      await notify(
        tx,
        mentioned.map((m) => m.id),
        {
          type: 'message_mention',
          title: `${message.authorName} mentioned you${where}`,
          body: input.body.slice(0, 500),
          link: `/communications?conversation=${conversationId}`,
          entityType: 'conversation',
          entityId: conversationId,
        },
        ctx.now,
      );
    }
    await publishEvent(tx, {
      kind: 'message',
      type: 'message.created',
      userIds: await repo.memberIdsOf(tx, conversationId),
      summary: `${message.authorName}: ${input.body || file?.fileName || ''}`.slice(0, 160),
      conversationId,
      at: ctx.now.toISOString(),
    });
    return message;
  });
}

export async function markConversationRead(ctx: Ctx, conversationId: string): Promise<Conversation> {
  const auth = requireAuth(ctx);
  await requireMember(ctx, conversationId);
  await repo.markConversationRead(ctx.db, { conversationId, userId: auth.userId });
  await publishUnreadChanged(ctx, auth.userId);
  return getConversation(ctx, conversationId);
}

export async function precheckMember(ctx: Ctx, conversationId: string): Promise<void> {
  await requireMember(ctx, conversationId);
}

export async function openAttachment(ctx: Ctx, conversationId: string, attachmentId: string) {
  await requireMember(ctx, conversationId);
  const a = await repo.findAttachment(ctx.db, { conversationId, id: attachmentId });
  if (!a) throw new AppError('NOT_FOUND', { message: 'Attachment not found' });
  const file = await ctx.storage.get(a.storageKey);
  if (!file) throw new AppError('NOT_FOUND', { message: 'The file of this attachment is missing' });
  return { ...file, contentType: a.contentType, fileName: a.fileName };
}

// --- people -----------------------------------------------------------------------------------

export async function people(ctx: Ctx, q: string | undefined): Promise<PersonList> {
  const auth = requireAuth(ctx);
  const rows = await repo.searchPeople(ctx.db, { q, excludeId: auth.userId, limit: 20 });
  return {
    items: rows.map((r) => ({ id: r.id, username: r.username, name: nameOf(r), organizationName: r.organizationName })),
  };
}
