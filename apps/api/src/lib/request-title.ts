// Searching requests by title, which the request lists and every screen that lists requests
// (budgets, approvals, payables, consolidation, financial flow) share.
import { sql, type SQL } from 'drizzle-orm';
import { spendingRequests } from '@outlay/db';

/**
 * Requests whose title contains a LIKE pattern (`likePattern`), whatever the case: a case-sensitive
 * LIKE on the title's stored lower-case copy, which is what PostgreSQL's ILIKE does (it lowers both
 * sides) without lowering every title it passes. A list's walk over the newest requests tests it on
 * the (created_at, seq) index alone, and the copy's trigram index finds a rare word's few matches.
 */
export function titleContains(pattern: string): SQL {
  return sql`${spendingRequests.titleFolded} LIKE lower(${pattern})`;
}
