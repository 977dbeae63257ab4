import { integer, jsonb, pgTable, uuid } from 'drizzle-orm/pg-core';
import { nonNegativeCheck } from './checks.ts';
import { ts } from './columns.ts';
import { organizations } from './organizations.ts';

/**
 * The request-suggestion model learned from one organization's past requests (the smart form's
 * category, vendor and department suggestions). One row per organization, claimed with SKIP
 * LOCKED by whichever instance retrains it, so every instance reads the same model. `model` is
 * null until the first training; its shape belongs to the API (modules/request-suggestions).
 */
export const requestSuggestionModels = pgTable(
  'request_suggestion_models',
  {
    organizationId: uuid('organization_id')
      .primaryKey()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    model: jsonb('model').$type<Record<string, unknown>>(),
    /** How many past requests it learned from. */
    trainedOn: integer('trained_on').notNull().default(0),
    trainedAt: ts('trained_at'),
  },
  (t) => [nonNegativeCheck('request_suggestion_models_trained_on_check', t.trainedOn)],
);
