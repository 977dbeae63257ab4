import { bigint, customType, index, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';

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

/** Text compared byte by byte, so a prefix is a range of the index ("cours" .. "coursz"). */
const byteText = customType<{ data: string }>({ dataType: () => 'text COLLATE "C"' });

/**
 * Each word (full-text lexeme) of each request, with the request's creation time and number:
 * newest-first within a word is a range of this index, so the newest requests that contain a
 * word are read without fetching every one of them, which the GIN index of the words has to do
 * before it can order anything (a word in 6% of a million requests: 300 ms, against under 1 ms
 * here). Kept by triggers on spending_requests (migration 0033).
 */
export const requestSearchWords = pgTable(
  'request_search_words',
  {
    lexeme: byteText('lexeme').notNull(),
    createdAt: ts('created_at').notNull(),
    seq: bigint('seq', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ name: 'request_search_words_pkey', columns: [t.lexeme, t.createdAt, t.seq] })],
);

/** The distinct lexemes of request_search_words: a prefix of the search ("negot") names its lexemes here. */
export const requestSearchLexemes = pgTable('request_search_lexemes', {
  lexeme: byteText('lexeme').primaryKey(),
});

/**
 * Each word of each request's title (as request_title_words splits it), with the request's
 * creation time and number: the newest requests whose title contains a word ("course") are a
 * range of this index per matching word, however rare the word is among the newest requests.
 * Walking the newest requests and testing each title read 75,000 of them before finding the
 * first thousand matches of a word in 5% of a million titles (50 ms); this reads the thousand.
 * Kept by triggers on spending_requests (migration 0038).
 */
export const requestTitlePostings = pgTable(
  'request_title_postings',
  {
    word: byteText('word').notNull(),
    createdAt: ts('created_at').notNull(),
    seq: bigint('seq', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ name: 'request_title_postings_pkey', columns: [t.word, t.createdAt, t.seq] })],
);
