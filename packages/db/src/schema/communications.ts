import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import {
  ANNOUNCEMENT_AUDIENCE_VALUES,
  ANNOUNCEMENT_MAX_LENGTH,
  CONVERSATION_KIND_VALUES,
  MESSAGE_MAX_LENGTH,
} from '@outlay/contracts';
import { enumCheck } from './checks.ts';
import { ts } from './columns.ts';
import { departments, organizations } from './organizations.ts';
import { users } from './users.ts';

/** To everyone, one organization or one department; `seq` breaks ties in the keyset order. */
export const announcements = pgTable(
  'announcements',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    authorId: uuid('author_id')
      .notNull()
      .references(() => users.id),
    title: text('title').notNull(),
    body: text('body').notNull(),
    audience: text('audience', { enum: ANNOUNCEMENT_AUDIENCE_VALUES }).notNull(),
    organizationId: uuid('organization_id').references(() => organizations.id),
    departmentId: uuid('department_id').references(() => departments.id),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('announcements_seq_idx').on(t.seq),
    index('announcements_created_idx').on(t.createdAt, t.seq),
    index('announcements_org_idx').on(t.organizationId),
    index('announcements_dept_idx').on(t.departmentId),
    enumCheck('announcements_audience_check', t.audience, ANNOUNCEMENT_AUDIENCE_VALUES),
    // The audience names exactly what it addresses: nothing for everyone, the organization, or the
    // department with its organization.
    check(
      'announcements_audience_target_check',
      sql`(${t.audience} = 'everyone' and ${t.organizationId} is null and ${t.departmentId} is null)
        or (${t.audience} = 'organization' and ${t.organizationId} is not null and ${t.departmentId} is null)
        or (${t.audience} = 'department' and ${t.organizationId} is not null and ${t.departmentId} is not null)`,
    ),
    check(
      'announcements_body_length_check',
      sql`char_length(${t.body}) between 1 and ${sql.raw(String(ANNOUNCEMENT_MAX_LENGTH))}`,
    ),
  ],
);

/** Who opened which announcement; absent means unread. */
export const announcementReads = pgTable(
  'announcement_reads',
  {
    announcementId: uuid('announcement_id')
      .notNull()
      .references(() => announcements.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    readAt: ts('read_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.announcementId, t.userId] }), index('announcement_reads_user_idx').on(t.userId)],
);

export const conversations = pgTable(
  'conversations',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    kind: text('kind', { enum: CONVERSATION_KIND_VALUES }).notNull(),
    title: text('title'),
    /** For a direct conversation the two user ids in order: two people have one direct conversation, whatever the race. */
    directKey: text('direct_key'),
    createdById: uuid('created_by_id')
      .notNull()
      .references(() => users.id),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastMessageAt: ts('last_message_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('conversations_direct_key_idx').on(t.directKey),
    enumCheck('conversations_kind_check', t.kind, CONVERSATION_KIND_VALUES),
    check(
      'conversations_direct_key_check',
      sql`(${t.kind} <> 'direct' or ${t.directKey} is not null) and (${t.kind} <> 'group' or ${t.directKey} is null)`,
    ),
  ],
);

/** Membership is the only way to a conversation; `lastReadSeq` is the last message seen. */
export const conversationMembers = pgTable(
  'conversation_members',
  {
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    lastReadSeq: bigint('last_read_seq', { mode: 'number' }).notNull().default(0),
    joinedAt: ts('joined_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.conversationId, t.userId] }), index('conversation_members_user_idx').on(t.userId)],
);

export const messages = pgTable(
  'messages',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    authorId: uuid('author_id')
      .notNull()
      .references(() => users.id),
    body: text('body').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('messages_seq_idx').on(t.seq),
    // History pages by keyset on (created_at, seq) inside one conversation; unread counts read seq.
    index('messages_conversation_idx').on(t.conversationId, t.createdAt, t.seq),
    index('messages_conversation_seq_idx').on(t.conversationId, t.seq),
    check('messages_body_length_check', sql`char_length(${t.body}) <= ${sql.raw(String(MESSAGE_MAX_LENGTH))}`),
  ],
);

/** A file sent in a conversation; the bytes are in the file storage under `storageKey`. */
export const messageAttachments = pgTable(
  'message_attachments',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    messageId: uuid('message_id')
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
    storageKey: text('storage_key').notNull(),
    uploadedById: uuid('uploaded_by_id')
      .notNull()
      .references(() => users.id),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('message_attachments_message_idx').on(t.messageId),
    check('message_attachments_size_check', sql`${t.size} > 0`),
  ],
);
