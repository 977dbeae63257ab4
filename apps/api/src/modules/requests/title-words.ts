import { and, desc, sql, type SQLWrapper } from 'drizzle-orm';
import { requestTitlePostings, requestTitleWords, type Db } from '@outlay/db';
import { afterCursor, likePattern } from '../../lib/lists.ts';
import { literalLimit } from '../../lib/sql.ts';

/**
 * A search the titles' word index answers exactly as the title's LIKE would: three or more ASCII
 * letters. Such text can only occur inside one run of letters and digits, which is one of the words
 * request_title_words and request_title_postings split titles into (words of three characters or
 * more), so "the title contains it" and "one of the title's words contains it" are the same test.
 * Anything else (a digit, a space, a dash, another alphabet) is searched in the titles themselves.
 */
export function isTitleWordSearch(q: string | undefined): q is string {
  return q !== undefined && /^[a-z]{3,}$/i.test(q);
}

/**
 * The newest `limit` requests (seq, created_at; newest first, after the cursor's row `after` when given) whose
 * title contains `q`: the vocabulary's words that contain it (a few, through its trigram index),
 * then the newest postings of each word (an index range apiece), merged. A request with two such
 * words appears in both ranges and once here. The limits are written into the statement: whatever
 * the word, the plan is the same, and PostgreSQL keeps it.
 */
export function titleWordHits(
  db: Pick<Db, 'select'>,
  q: string,
  limit: number,
  after: { value: string; tie: string } | null,
) {
  const words = db
    .select({ word: requestTitleWords.word })
    .from(requestTitleWords)
    .where(sql`${requestTitleWords.word} LIKE lower(${likePattern(q)})`)
    .as('matching_words');
  const p = requestTitlePostings;
  const newest = db
    .select({ seq: p.seq, createdAt: p.createdAt })
    .from(p)
    .where(
      and(
        sql`${p.word} = ${words.word} COLLATE "C"`,
        after ? afterCursor({ expression: sql`${p.createdAt}`, type: 'timestamptz' }, p.seq, 'desc', after) : undefined,
      ),
    )
    .orderBy(desc(p.createdAt), desc(p.seq))
    .limit(literalLimit(limit))
    .as('hits');
  return db
    .select(requestKeys(newest.seq, newest.createdAt))
    .from(words)
    .crossJoinLateral(newest)
    .groupBy(newest.seq, newest.createdAt)
    .orderBy(desc(newest.createdAt), desc(newest.seq))
    .limit(literalLimit(limit))
    .$dynamic();
}

/** A request's keyset position as a walk selects it, whichever table it comes from. */
export function requestKeys(seq: SQLWrapper, createdAt: SQLWrapper) {
  return { seq: sql<number>`${seq}`.as('seq'), createdAt: sql<string>`${createdAt}`.as('created_at') };
}
