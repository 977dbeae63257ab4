import { pgTable, uuid } from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';
import { users } from './users.ts';

/**
 * What the onboarding checklist keeps per person. The steps themselves are read from the
 * records they stand for (a submitted request, a decision, 2FA on); only the person's own
 * choices and the first moment everything was done live here.
 */
export const onboardingProgress = pgTable('onboarding_progress', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  dismissedAt: ts('dismissed_at'),
  completedAt: ts('completed_at'),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
