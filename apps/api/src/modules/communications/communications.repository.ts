import { and, asc, desc, eq, ilike, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import {
  announcementReads,
  announcements,
  conversationMembers,
  conversations,
  departments,
  messageAttachments,
  messages,
  organizations,
  users,
  type Db,
} from '@outlay/db';
import { afterCursor, decodeCursor, keysetPage, likePattern, type KeysetSort } from '../../lib/lists.ts';
import { rowsOf } from '../../lib/sql.ts';

/** Who reads: the announcements addressed to them follow from their organization and department. */
export interface Reader {
  userId: string;
  organizationId: string | null;
  departmentId: string | null;
}

const CREATED: Record<'announcements' | 'messages', KeysetSort> = {
  announcements: { expression: sql`${announcements.createdAt}`, type: 'timestamptz' },
  messages: { expression: sql`${messages.createdAt}`, type: 'timestamptz' },
};

/** The announcements a person may read: to everyone, to their organization or department, or their own. */
export function addressedTo(reader: Reader): SQL {
  return or(
    eq(announcements.audience, 'everyone'),
    reader.organizationId
      ? and(eq(announcements.audience, 'organization'), eq(announcements.organizationId, reader.organizationId))
      : undefined,
    reader.departmentId
      ? and(eq(announcements.audience, 'department'), eq(announcements.departmentId, reader.departmentId))
      : undefined,
    eq(announcements.authorId, reader.userId),
  )!;
}

export async function listAnnouncements(
  db: Db,
  params: { reader: Reader; limit: number; cursor?: string; id?: string },
) {
  const at = params.cursor ? decodeCursor(params.cursor, 'createdAt', 'desc') : null;
  const sort = CREATED.announcements;
  const fetched = await db
    .select({
      id: announcements.id,
      seq: announcements.seq,
      title: announcements.title,
      body: announcements.body,
      audience: announcements.audience,
      organizationId: announcements.organizationId,
      organizationName: organizations.name,
      departmentId: announcements.departmentId,
      departmentName: departments.name,
      authorId: announcements.authorId,
      authorFirstName: users.firstName,
      authorLastName: users.lastName,
      readAt: announcementReads.readAt,
      createdAt: announcements.createdAt,
      sortValue: sql<string>`(${sort.expression})::text`,
    })
    .from(announcements)
    .innerJoin(users, eq(users.id, announcements.authorId))
    .leftJoin(organizations, eq(organizations.id, announcements.organizationId))
    .leftJoin(departments, eq(departments.id, announcements.departmentId))
    .leftJoin(
      announcementReads,
      and(eq(announcementReads.announcementId, announcements.id), eq(announcementReads.userId, params.reader.userId)),
    )
    .where(
      and(
        addressedTo(params.reader),
        params.id ? eq(announcements.id, params.id) : undefined,
        at ? afterCursor(sort, announcements.seq, 'desc', at) : undefined,
      ),
    )
    .orderBy(desc(announcements.createdAt), desc(announcements.seq))
    .limit(params.limit + 1);
  return keysetPage(fetched, params.limit, (r) => ({ value: r.sortValue, tie: r.seq }), {
    sort: 'createdAt',
    order: 'desc',
  });
}
export type AnnouncementRow = Awaited<ReturnType<typeof listAnnouncements>>['rows'][number];

export async function insertAnnouncement(
  db: Db,
  values: {
    authorId: string;
    title: string;
    body: string;
    audience: 'everyone' | 'organization' | 'department';
    organizationId: string | null;
    departmentId: string | null;
    createdAt: Date;
  },
): Promise<string> {
  const [row] = await db.insert(announcements).values(values).returning({ id: announcements.id });
  return row!.id;
}

export async function markAnnouncementsRead(
  db: Db,
  params: { userId: string; ids: string[]; now: Date },
): Promise<void> {
  if (params.ids.length === 0) return;
  await db
    .insert(announcementReads)
    .values(params.ids.map((announcementId) => ({ announcementId, userId: params.userId, readAt: params.now })))
    .onConflictDoNothing();
}

/** Ids of the announcements addressed to the reader that they have not opened. */
export async function unreadAnnouncementIds(db: Db, reader: Reader): Promise<string[]> {
  const rows = await db
    .select({ id: announcements.id })
    .from(announcements)
    .leftJoin(
      announcementReads,
      and(eq(announcementReads.announcementId, announcements.id), eq(announcementReads.userId, reader.userId)),
    )
    .where(
      and(addressedTo(reader), ne(announcements.authorId, reader.userId), sql`${announcementReads.userId} is null`),
    );
  return rows.map((r) => r.id);
}

export async function countUnreadAnnouncements(db: Db, reader: Reader): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(announcements)
    .leftJoin(
      announcementReads,
      and(eq(announcementReads.announcementId, announcements.id), eq(announcementReads.userId, reader.userId)),
    )
    .where(
      and(addressedTo(reader), ne(announcements.authorId, reader.userId), sql`${announcementReads.userId} is null`),
    );
  return Number(row?.n ?? 0);
}

export async function organizationsFor(db: Db, organizationId: string | null) {
  return db
    .select({ id: organizations.id, name: organizations.name })
    .from(organizations)
    .where(organizationId ? eq(organizations.id, organizationId) : undefined)
    .orderBy(asc(organizations.name));
}

export async function departmentsFor(db: Db, filter: { organizationId?: string | null; departmentId?: string | null }) {
  return db
    .select({
      id: departments.id,
      name: departments.name,
      organizationId: departments.organizationId,
      organizationName: organizations.name,
    })
    .from(departments)
    .innerJoin(organizations, eq(organizations.id, departments.organizationId))
    .where(
      and(
        filter.organizationId ? eq(departments.organizationId, filter.organizationId) : undefined,
        filter.departmentId ? eq(departments.id, filter.departmentId) : undefined,
      ),
    )
    .orderBy(asc(organizations.name), asc(departments.name));
}

// --- conversations ----------------------------------------------------------------------------

export async function findMembership(db: Db, params: { conversationId: string; userId: string }) {
  const [row] = await db
    .select({ kind: conversations.kind, title: conversations.title, lastReadSeq: conversationMembers.lastReadSeq })
    .from(conversationMembers)
    .innerJoin(conversations, eq(conversations.id, conversationMembers.conversationId))
    .where(
      and(eq(conversationMembers.conversationId, params.conversationId), eq(conversationMembers.userId, params.userId)),
    );
  return row ?? null;
}

/** The caller's conversations, most recently active first. */
export async function conversationsOf(db: Db, params: { userId: string; limit: number; id?: string }) {
  return db
    .select({
      id: conversations.id,
      kind: conversations.kind,
      title: conversations.title,
      lastMessageAt: conversations.lastMessageAt,
      lastReadSeq: conversationMembers.lastReadSeq,
    })
    .from(conversationMembers)
    .innerJoin(conversations, eq(conversations.id, conversationMembers.conversationId))
    .where(and(eq(conversationMembers.userId, params.userId), params.id ? eq(conversations.id, params.id) : undefined))
    .orderBy(desc(conversations.lastMessageAt), desc(conversations.id))
    .limit(params.limit);
}

export async function membersOf(db: Db, conversationIds: string[]) {
  if (conversationIds.length === 0) return [];
  return db
    .select({
      conversationId: conversationMembers.conversationId,
      id: users.id,
      username: users.username,
      firstName: users.firstName,
      lastName: users.lastName,
    })
    .from(conversationMembers)
    .innerJoin(users, eq(users.id, conversationMembers.userId))
    .where(inArray(conversationMembers.conversationId, conversationIds))
    .orderBy(asc(users.firstName), asc(users.lastName));
}

/** The newest message of each conversation: one index probe each on (conversation_id, seq), however long the history. */
export async function lastMessagesOf(db: Db, conversationIds: string[]) {
  if (conversationIds.length === 0) return [];
  return rowsOf<{
    conversation_id: string;
    body: string;
    created_at: Date | string;
    first_name: string;
    last_name: string;
  }>(
    await db.execute(sql`
      SELECT c.id AS conversation_id, m.body, m.created_at, u.first_name, u.last_name
      FROM (VALUES ${sql.join(
        conversationIds.map((id) => sql`(${id}::uuid)`),
        sql`, `,
      )}) AS c(id)
      CROSS JOIN LATERAL (SELECT body, created_at, author_id FROM ${messages} WHERE conversation_id = c.id ORDER BY seq DESC LIMIT 1) m
      JOIN ${users} u ON u.id = m.author_id`),
  );
}

/** Unread messages (others' messages after the member's last read one), per conversation. */
export async function unreadByConversation(
  db: Db,
  params: { userId: string; conversationIds?: string[] },
): Promise<Map<string, number>> {
  if (params.conversationIds && params.conversationIds.length === 0) return new Map();
  const rows = await db
    .select({ conversationId: messages.conversationId, n: sql<number>`count(*)::int` })
    .from(conversationMembers)
    .innerJoin(
      messages,
      and(
        eq(messages.conversationId, conversationMembers.conversationId),
        sql`${messages.seq} > ${conversationMembers.lastReadSeq}`,
      ),
    )
    .where(
      and(
        eq(conversationMembers.userId, params.userId),
        ne(messages.authorId, params.userId),
        params.conversationIds ? inArray(conversationMembers.conversationId, params.conversationIds) : undefined,
      ),
    )
    .groupBy(messages.conversationId);
  return new Map(rows.map((r) => [r.conversationId, Number(r.n)]));
}

export async function countUnreadMessages(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(conversationMembers)
    .innerJoin(
      messages,
      and(
        eq(messages.conversationId, conversationMembers.conversationId),
        sql`${messages.seq} > ${conversationMembers.lastReadSeq}`,
      ),
    )
    .where(and(eq(conversationMembers.userId, userId), ne(messages.authorId, userId)));
  return Number(row?.n ?? 0);
}

export async function findDirectConversation(db: Db, directKey: string): Promise<string | null> {
  const [row] = await db
    .select({ id: conversations.id })
    .from(conversations)
    .where(eq(conversations.directKey, directKey));
  return row?.id ?? null;
}

/** A new conversation with its members; a direct one that already exists (a race) returns null. */
export async function insertConversation(
  db: Db,
  values: {
    kind: 'direct' | 'group';
    title: string | null;
    directKey: string | null;
    createdById: string;
    memberIds: string[];
    now: Date;
  },
): Promise<string | null> {
  const [row] = await db
    .insert(conversations)
    .values({
      kind: values.kind,
      title: values.title,
      directKey: values.directKey,
      createdById: values.createdById,
      createdAt: values.now,
      lastMessageAt: values.now,
    })
    .onConflictDoNothing()
    .returning({ id: conversations.id });
  if (!row) return null;
  await db
    .insert(conversationMembers)
    .values(values.memberIds.map((userId) => ({ conversationId: row.id, userId, joinedAt: values.now })));
  return row.id;
}

export async function activeUsers(db: Db, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .select({ id: users.id, username: users.username, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(and(inArray(users.id, ids), eq(users.status, 'active')));
}

export async function memberIdsOf(db: Db, conversationId: string): Promise<string[]> {
  const rows = await db
    .select({ userId: conversationMembers.userId })
    .from(conversationMembers)
    .where(eq(conversationMembers.conversationId, conversationId));
  return rows.map((r) => r.userId);
}

/** Members of the conversation among these usernames (lower-cased). */
export async function membersByUsername(db: Db, params: { conversationId: string; usernames: string[] }) {
  if (params.usernames.length === 0) return [];
  return db
    .select({ id: users.id, username: users.username })
    .from(conversationMembers)
    .innerJoin(users, eq(users.id, conversationMembers.userId))
    .where(
      and(
        eq(conversationMembers.conversationId, params.conversationId),
        inArray(sql`lower(${users.username})`, params.usernames),
      ),
    );
}

// --- messages ---------------------------------------------------------------------------------

export async function insertMessage(
  db: Db,
  values: { conversationId: string; authorId: string; body: string; createdAt: Date },
) {
  const [row] = await db
    .insert(messages)
    .values(values)
    .returning({ id: messages.id, seq: messages.seq, createdAt: messages.createdAt });
  await db
    .update(conversations)
    .set({ lastMessageAt: values.createdAt })
    .where(eq(conversations.id, values.conversationId));
  // The author has read what they wrote.
  await markConversationRead(db, { conversationId: values.conversationId, userId: values.authorId, seq: row!.seq });
  return row!;
}

export async function insertMessageAttachment(
  db: Db,
  values: {
    messageId: string;
    conversationId: string;
    fileName: string;
    contentType: string;
    size: number;
    sha256: string;
    storageKey: string;
    uploadedById: string;
    createdAt: Date;
  },
) {
  const [row] = await db.insert(messageAttachments).values(values).returning({ id: messageAttachments.id });
  return row!.id;
}

export async function listMessages(
  db: Db,
  params: { conversationId: string; limit: number; cursor?: string; id?: string },
) {
  const at = params.cursor ? decodeCursor(params.cursor, 'createdAt', 'desc') : null;
  const sort = CREATED.messages;
  const fetched = await db
    .select({
      id: messages.id,
      seq: messages.seq,
      conversationId: messages.conversationId,
      authorId: messages.authorId,
      authorFirstName: users.firstName,
      authorLastName: users.lastName,
      body: messages.body,
      createdAt: messages.createdAt,
      sortValue: sql<string>`(${sort.expression})::text`,
    })
    .from(messages)
    .innerJoin(users, eq(users.id, messages.authorId))
    .where(
      and(
        eq(messages.conversationId, params.conversationId),
        params.id ? eq(messages.id, params.id) : undefined,
        at ? afterCursor(sort, messages.seq, 'desc', at) : undefined,
      ),
    )
    .orderBy(desc(messages.createdAt), desc(messages.seq))
    .limit(params.limit + 1);
  return keysetPage(fetched, params.limit, (r) => ({ value: r.sortValue, tie: r.seq }), {
    sort: 'createdAt',
    order: 'desc',
  });
}
export type MessageRow = Awaited<ReturnType<typeof listMessages>>['rows'][number];

export async function attachmentsOf(db: Db, messageIds: string[]) {
  if (messageIds.length === 0) return [];
  return db
    .select({
      id: messageAttachments.id,
      messageId: messageAttachments.messageId,
      fileName: messageAttachments.fileName,
      contentType: messageAttachments.contentType,
      size: messageAttachments.size,
    })
    .from(messageAttachments)
    .where(inArray(messageAttachments.messageId, messageIds))
    .orderBy(asc(messageAttachments.createdAt));
}

export async function findAttachment(db: Db, params: { conversationId: string; id: string }) {
  const [row] = await db
    .select()
    .from(messageAttachments)
    .where(and(eq(messageAttachments.conversationId, params.conversationId), eq(messageAttachments.id, params.id)));
  return row ?? null;
}

/** Moves the member's read mark forward only (a late request never makes read messages unread). */
export async function markConversationRead(
  db: Db,
  params: { conversationId: string; userId: string; seq?: number },
): Promise<void> {
  const latest =
    params.seq !== undefined
      ? sql`${params.seq}::bigint`
      : sql`(SELECT coalesce(max(seq), 0) FROM ${messages} WHERE conversation_id = ${params.conversationId})`;
  await db
    .update(conversationMembers)
    .set({ lastReadSeq: sql`greatest(${conversationMembers.lastReadSeq}, ${latest})` })
    .where(
      and(eq(conversationMembers.conversationId, params.conversationId), eq(conversationMembers.userId, params.userId)),
    );
}

// --- people -----------------------------------------------------------------------------------

export async function searchPeople(db: Db, params: { q?: string; excludeId: string; limit: number }) {
  const pattern = params.q ? likePattern(params.q) : null;
  return db
    .select({
      id: users.id,
      username: users.username,
      firstName: users.firstName,
      lastName: users.lastName,
      organizationName: organizations.name,
    })
    .from(users)
    .leftJoin(organizations, eq(organizations.id, users.organizationId))
    .where(
      and(
        eq(users.status, 'active'),
        ne(users.id, params.excludeId),
        pattern
          ? or(
              ilike(users.username, pattern),
              ilike(users.firstName, pattern),
              ilike(users.lastName, pattern),
              ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, pattern),
            )
          : undefined,
      ),
    )
    .orderBy(asc(users.firstName), asc(users.lastName))
    .limit(params.limit);
}
