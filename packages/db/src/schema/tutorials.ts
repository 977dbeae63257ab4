import { pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';
import { users } from './users.ts';

/**
 * Which shipped articles each person has opened (tutorial progress): the articles themselves
 * are files, so the slug is their key.
 */
export const tutorialReads = pgTable(
  'tutorial_reads',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    slug: text('slug').notNull(),
    firstReadAt: ts('first_read_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.slug] })],
);
