import { pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';
import { users } from './users.ts';

/**
 * One private calendar subscription link per person. The link's token is its only credential
 * (calendar apps fetch it without signing in), so only its SHA-256 is kept: a copy of the
 * database gives no one a readable feed. Revoking deletes the row; regenerating replaces it.
 */
export const calendarFeeds = pgTable('calendar_feeds', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  tokenHash: text('token_hash').notNull().unique(),
  createdAt: ts('created_at').notNull().defaultNow(),
  lastFetchedAt: ts('last_fetched_at'),
});
