// Communications (docs/product.md §3.11 /communications): announcements to everyone, an organization or a
// department (authored with communications.announce, read by those they address), and direct or
// group conversations between users, with unread counts, @mentions and file attachments.
import { z } from 'zod';
import { cursorQuery } from './lists.ts';
import { text } from './primitives.ts';

export const ANNOUNCEMENT_AUDIENCE_VALUES = ['everyone', 'organization', 'department'] as const;
export type AnnouncementAudience = (typeof ANNOUNCEMENT_AUDIENCE_VALUES)[number];
export const ANNOUNCEMENT_AUDIENCE_LABELS: Record<AnnouncementAudience, string> = {
  everyone: 'Everyone',
  organization: 'An organization',
  department: 'A department',
};

export const CONVERSATION_KIND_VALUES = ['direct', 'group'] as const;
export type ConversationKind = (typeof CONVERSATION_KIND_VALUES)[number];

export const MESSAGE_MAX_LENGTH = 4000;
export const ANNOUNCEMENT_MAX_LENGTH = 8000;
/** A group conversation holds at most this many people, its creator included. */
export const CONVERSATION_MAX_MEMBERS = 50;
export const MESSAGE_PAGE_SIZE = 30;

/** `@username` in a message: usernames are letters, digits, dots, dashes and underscores. */
export const MENTION_PATTERN = /(^|[^\w@])@([a-z0-9][a-z0-9._-]{0,62})/gi;

/** The usernames a text mentions, lower-cased, each once. */
export function mentionedUsernames(body: string): string[] {
  const found = new Set<string>();
  for (const match of body.matchAll(MENTION_PATTERN)) found.add(match[2]!.replace(/[._-]+$/, '').toLowerCase());
  return [...found].filter(Boolean);
}

const limitQuery = { limit: z.coerce.number().int().min(1).max(100).default(MESSAGE_PAGE_SIZE) };

// --- announcements ----------------------------------------------------------------------------

export const announcement = z.object({
  id: z.string(),
  title: z.string(),
  body: z.string(),
  audience: z.enum(ANNOUNCEMENT_AUDIENCE_VALUES),
  organizationId: z.string().nullable(),
  organizationName: z.string().nullable(),
  departmentId: z.string().nullable(),
  departmentName: z.string().nullable(),
  authorId: z.string(),
  authorName: z.string(),
  read: z.boolean(),
  createdAt: z.string(),
});
export type Announcement = z.infer<typeof announcement>;

export const announcementListQuery = z.object({ ...cursorQuery, ...limitQuery });
export type AnnouncementListQuery = z.infer<typeof announcementListQuery>;

export const announcementPage = z.object({ items: z.array(announcement), nextCursor: z.string().nullable() });
export type AnnouncementPage = z.infer<typeof announcementPage>;

export const createAnnouncementInput = z
  .object({
    title: text
      .trim()
      .min(3, 'The title must be at least 3 characters')
      .max(160, 'The title must be at most 160 characters'),
    body: text
      .trim()
      .min(1, 'Write the announcement')
      .max(ANNOUNCEMENT_MAX_LENGTH, 'An announcement must be at most 8,000 characters'),
    audience: z.enum(ANNOUNCEMENT_AUDIENCE_VALUES),
    organizationId: z.uuid('Choose an organization').optional(),
    departmentId: z.uuid('Choose a department').optional(),
  })
  .superRefine((v, ctx) => {
    if (v.audience === 'organization' && !v.organizationId)
      ctx.addIssue({ code: 'custom', path: ['organizationId'], message: 'Choose an organization' });
    if (v.audience === 'department' && !v.departmentId)
      ctx.addIssue({ code: 'custom', path: ['departmentId'], message: 'Choose a department' });
  });
export type CreateAnnouncementInput = z.infer<typeof createAnnouncementInput>;

/** Whom the caller may address: everyone (group scope), these organizations, these departments. */
export const announcementAudiences = z.object({
  everyone: z.boolean(),
  organizations: z.array(z.object({ id: z.string(), name: z.string() })),
  departments: z.array(
    z.object({ id: z.string(), name: z.string(), organizationId: z.string(), organizationName: z.string() }),
  ),
});
export type AnnouncementAudiences = z.infer<typeof announcementAudiences>;

// --- conversations and messages ---------------------------------------------------------------

export const conversationMember = z.object({ id: z.string(), name: z.string(), username: z.string() });
export type ConversationMember = z.infer<typeof conversationMember>;

export const conversation = z.object({
  id: z.string(),
  kind: z.enum(CONVERSATION_KIND_VALUES),
  /** A group's title; null for a direct conversation (the screen names the other person). */
  title: z.string().nullable(),
  members: z.array(conversationMember),
  lastMessage: z.object({ authorName: z.string(), body: z.string(), createdAt: z.string() }).nullable(),
  unread: z.number().int(),
  lastActivityAt: z.string(),
});
export type Conversation = z.infer<typeof conversation>;

export const conversationList = z.object({ items: z.array(conversation) });
export type ConversationList = z.infer<typeof conversationList>;

export const createConversationInput = z.object({
  memberIds: z
    .array(z.uuid('Not a valid person'))
    .min(1, 'Choose at least one person')
    .max(CONVERSATION_MAX_MEMBERS - 1, `A conversation holds at most ${CONVERSATION_MAX_MEMBERS} people`),
  /** Only for a group; a direct conversation (one other person) has none. */
  title: text.trim().max(120, 'The title must be at most 120 characters').optional(),
});
export type CreateConversationInput = z.infer<typeof createConversationInput>;

export const messageAttachment = z.object({
  id: z.string(),
  fileName: z.string(),
  contentType: z.string(),
  size: z.number().int(),
  url: z.string(),
});
export type MessageAttachment = z.infer<typeof messageAttachment>;

export const message = z.object({
  id: z.string(),
  conversationId: z.string(),
  authorId: z.string(),
  authorName: z.string(),
  body: z.string(),
  attachments: z.array(messageAttachment),
  createdAt: z.string(),
});
export type Message = z.infer<typeof message>;

/** History newest first; `cursor` reads on to older messages. */
export const messageListQuery = z.object({ ...cursorQuery, ...limitQuery });
export type MessageListQuery = z.infer<typeof messageListQuery>;

export const messagePage = z.object({ items: z.array(message), nextCursor: z.string().nullable() });
export type MessagePage = z.infer<typeof messagePage>;

export const sendMessageInput = z.object({
  body: text.trim().min(1, 'Write a message').max(MESSAGE_MAX_LENGTH, 'A message must be at most 4,000 characters'),
});
export type SendMessageInput = z.infer<typeof sendMessageInput>;

/** The optional caption sent with a file (multipart field "body"). */
export const attachmentCaption = text.trim().max(MESSAGE_MAX_LENGTH, 'A message must be at most 4,000 characters');

export const conversationParams = z.object({ id: z.uuid('Not a valid id'), aid: z.uuid('Not a valid id') });

// --- people, unread ---------------------------------------------------------------------------

export const peopleQuery = z.object({ q: text.trim().max(100).optional() });
export const communicationsPerson = z.object({
  id: z.string(),
  name: z.string(),
  username: z.string(),
  organizationName: z.string().nullable(),
});
export type CommunicationsPerson = z.infer<typeof communicationsPerson>;
export const personList = z.object({ items: z.array(communicationsPerson) });
export type PersonList = z.infer<typeof personList>;

export const communicationsUnread = z.object({
  /** Unread messages across the caller's conversations (their own not counted). */
  messages: z.number().int(),
  /** Announcements addressed to the caller they have not opened. */
  announcements: z.number().int(),
});
export type CommunicationsUnread = z.infer<typeof communicationsUnread>;
