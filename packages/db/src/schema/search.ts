import { index, pgTable, text } from 'drizzle-orm/pg-core';

/**
 * Every word of the requests' titles, once: a misspelt word of a search is matched against these
 * few thousand words (trigram similarity) and searched as the words it resembles, instead of
 * comparing it with the trigrams of every title. A trigger on spending_requests adds the words of
 * each new or retitled request (migration 0031); words are never removed, a stale one finds nothing.
 */
export const requestTitleWords = pgTable(
  'request_title_words',
  {
    word: text('word').primaryKey(),
  },
  (t) => [index('request_title_words_trgm_idx').using('gin', t.word.op('gin_trgm_ops'))],
);
