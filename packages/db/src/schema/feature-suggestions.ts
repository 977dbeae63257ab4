import { sql } from 'drizzle-orm';
import { index, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { FEATURE_SUGGESTION_STATUS_VALUES } from '@outlay/contracts';
import { enumCheck } from './checks.ts';
import { ts } from './columns.ts';
import { users } from './users.ts';

export const featureSuggestions = pgTable(
  'feature_suggestions',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    authorId: uuid('author_id')
      .notNull()
      .references(() => users.id),
    title: text('title').notNull(),
    description: text('description').notNull(),
    status: text('status', { enum: FEATURE_SUGGESTION_STATUS_VALUES }).notNull().default('open'),
    statusNote: text('status_note'),
    statusChangedAt: ts('status_changed_at'),
    statusChangedBy: uuid('status_changed_by').references(() => users.id),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('feature_suggestions_status_idx').on(t.status, t.createdAt),
    index('feature_suggestions_author_idx').on(t.authorId),
    enumCheck('feature_suggestions_status_check', t.status, FEATURE_SUGGESTION_STATUS_VALUES),
  ],
);

/** One vote per person and suggestion: the primary key is the rule, whatever the race. */
export const featureSuggestionVotes = pgTable(
  'feature_suggestion_votes',
  {
    suggestionId: uuid('suggestion_id')
      .notNull()
      .references(() => featureSuggestions.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.suggestionId, t.userId] }), index('feature_suggestion_votes_user_idx').on(t.userId)],
);

export const featureSuggestionComments = pgTable(
  'feature_suggestion_comments',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    suggestionId: uuid('suggestion_id')
      .notNull()
      .references(() => featureSuggestions.id, { onDelete: 'cascade' }),
    authorId: uuid('author_id')
      .notNull()
      .references(() => users.id),
    body: text('body').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('feature_suggestion_comments_suggestion_idx').on(t.suggestionId, t.createdAt)],
);
