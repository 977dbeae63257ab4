// Queries of search: `(db, params)` functions that take the caller's scope as a condition.
import { and, asc, eq, or, sql, type SQL } from 'drizzle-orm';
import {
  budgetLines,
  categories,
  departments,
  organizations,
  policyRules,
  requestSearchLexemes,
  requestSearchWords,
  requestTitleWords,
  spendingRequests,
  users,
  userSearchText,
  vendors,
  type Db,
} from '@outlay/db';
import { likePattern } from '../../lib/lists.ts';
import { rowsOf } from '../../lib/sql.ts';
import type { QueryWord } from './search.words.ts';

/**
 * How alike a word of the search and a word of a name must be (pg_trgm's word_similarity, the
 * `<%` operator the trigram indexes answer): 0.5 forgives a letter or two in a short word, which
 * the default 0.6 does not.
 */
export const WORD_SIMILARITY = 0.5;

/** Every organization and category by name and code: the words a search may name them by. */
export interface NamedThings {
  organizations: { id: string; name: string; code: string; currency: string; kind: string }[];
  categories: { id: string; name: string; code: string }[];
}

/**
 * Runs `work` in a transaction set up for search: the `<%` operator, the one the GIN trigram
 * indexes answer, reads its threshold from a setting; and sequential scans are priced out, since
 * the planner takes a trigram comparison for as cheap as an equality and would compare every
 * person's name (10,000 of them) rather than read the name index. The statement that makes the
 * settings also reads the organizations and categories a search's words may name: each round trip
 * to the database costs the server more than these small reads do.
 */
export async function withSearchSettings<T>(db: Db, work: (tx: Db, named: NamedThings) => Promise<T>): Promise<T> {
  return db.transaction(async (raw) => {
    const tx = raw as unknown as Db;
    // A table with no index to read (a handful of policies) is then costed in the billions, which
    // would make PostgreSQL compile the query to machine code first (JIT): 80–190 ms for seven rows.
    const [named] = rowsOf<{ organizations: NamedThings['organizations'] | string; categories: NamedThings['categories'] | string }>(
      await tx.execute(
        sql`SELECT set_config('pg_trgm.word_similarity_threshold', ${String(WORD_SIMILARITY)}, true), set_config('enable_seqscan', 'off', true), set_config('jit', 'off', true),
          (SELECT coalesce(json_agg(json_build_object('id', o.id, 'name', o.name, 'code', o.code, 'currency', o.currency, 'kind', o.kind)), '[]')
             FROM ${organizations} o) AS organizations,
          (SELECT coalesce(json_agg(json_build_object('id', c.id, 'name', c.name, 'code', c.code)), '[]')
             FROM ${categories} c WHERE c.active) AS categories`,
      ),
    );
    // node-postgres decodes json; PGlite may hand it over as text.
    const decode = <V>(v: V | string): V => (typeof v === 'string' ? (JSON.parse(v) as V) : v);
    return work(tx, { organizations: decode(named!.organizations), categories: decode(named!.categories) });
  });
}

/** Runs one query without plain index scans: the whole history is then read through the words' GIN index. */
async function throughWordIndex<T>(db: Db, query: () => Promise<T>): Promise<T> {
  await db.execute(sql`SELECT set_config('enable_indexscan', 'off', true)`);
  try {
    return await query();
  } finally {
    await db.execute(sql`SELECT set_config('enable_indexscan', 'on', true)`);
  }
}

/**
 * The newest `n` requests inside `condition`, named like the table so the match conditions read
 * them unchanged: a range of the created_at index, then each row's stored words tested. For a
 * common word this stays cheap where the word's index would hand over every one of its rows.
 */
function newest(condition: SQL | undefined, n: number): SQL {
  return sql`(SELECT id, seq, title, status, amount, currency, requester_id, organization_id, created_at, search_vector
      FROM ${spendingRequests} WHERE ${condition ?? sql`true`}
      ORDER BY ${spendingRequests.createdAt} DESC, ${spendingRequests.seq} DESC LIMIT ${n}) AS ${spendingRequests}`;
}

/**
 * The newest `n` requests inside `condition`, their keys found first and their rows read after:
 * an organization's filters (category, status, department, requester, amount) are in its
 * (organization, created_at) index, so the keys come from the index alone and only the page's
 * rows are read, where reading each row to test it read every request of the period.
 */
function newestByKeys(condition: SQL | undefined, n: number): SQL {
  const r = spendingRequests;
  return sql`(SELECT ${r.id} AS id, k.seq, ${r.title} AS title, ${r.status} AS status, ${r.amount} AS amount, ${r.currency} AS currency,
        ${r.requesterId} AS requester_id, ${r.organizationId} AS organization_id, k.created_at, ${r.searchVector} AS search_vector
      FROM (SELECT ${r.seq} AS seq, ${r.createdAt} AS created_at FROM ${r} WHERE ${condition ?? sql`true`}
             ORDER BY ${r.createdAt} DESC, ${r.seq} DESC LIMIT ${n}) AS k
      JOIN ${r} ON ${r.seq} = k.seq) AS ${r}`;
}

/**
 * The newest `n` requests inside `condition` matching `match` among the newest `cap` requests that
 * carry one of `lexemes`: one backward range of request_search_words per lexeme, merged in time
 * order, each request then read by its number. Named like the table, as `newest` is.
 */
function walked(condition: SQL | undefined, match: SQL | undefined, lexemes: readonly string[], cap: number, n: number): SQL {
  const w = requestSearchWords;
  const branches = lexemes.map(
    (l) => sql`(SELECT ${w.seq} AS seq, ${w.createdAt} AS created_at FROM ${w} WHERE ${w.lexeme} = ${l} ORDER BY ${w.createdAt} DESC, ${w.seq} DESC LIMIT ${cap})`,
  );
  const r = spendingRequests;
  return sql`(SELECT ${r.id} AS id, w.seq, ${r.title} AS title, ${r.status} AS status, ${r.amount} AS amount, ${r.currency} AS currency,
        ${r.requesterId} AS requester_id, ${r.organizationId} AS organization_id, w.created_at, ${r.searchVector} AS search_vector
      FROM (SELECT seq, created_at FROM (${sql.join(branches, sql` UNION ALL `)}) AS u ORDER BY created_at DESC, seq DESC LIMIT ${cap}) AS w
      JOIN ${r} ON ${r.seq} = w.seq
      WHERE ${and(condition, match) ?? sql`true`}
      ORDER BY w.created_at DESC, w.seq DESC LIMIT ${n}) AS ${r}`;
}

export interface WordWalk {
  /** The lexemes whose requests are walked: those of the search's rarest term. */
  lexemes: string[];
  /** The term has fewer than `cap` requests: walking them all finds every match. */
  complete: boolean;
  /** A term no request's words carry: nothing matches. */
  none: boolean;
}

/**
 * Which term of the search to walk in time order: each word's lexeme as the tsquery makes it
 * (to_tsvector of the word, so stemming and stop words agree), a prefix widened to the lexemes
 * it starts (at most 20, from request_search_lexemes: in byte order, the lexemes from the prefix up to
 * the prefix with its last letter moved one on), and how many request words carry them,
 * counted up to `cap` through the index. The rarest term finds the newest matches soonest.
 */
export async function planWordWalk(db: Db, terms: readonly (readonly QueryWord[])[], cap: number): Promise<WordWalk | null> {
  if (terms.length === 0) return null;
  const values = sql.join(
    terms.flatMap((t, i) => t.map((q) => sql`(${i}::int, ${q.word}::text, ${q.prefix}::boolean)`)),
    sql`, `,
  );
  const x = requestSearchLexemes;
  const rows = rowsOf<{ i: number; stemmed: boolean; lexemes: string[] | null; n: number }>(
    await db.execute(sql`
      WITH words(i, word, prefix) AS (VALUES ${values}),
      stems AS (
        SELECT i, prefix, (SELECT s.lexeme FROM unnest(to_tsvector('english'::regconfig, word)) AS s LIMIT 1) AS stem FROM words
      ),
      lexemes AS (
        SELECT st.i, found.lexeme
          FROM stems st
          CROSS JOIN LATERAL (
            SELECT ${x.lexeme} AS lexeme FROM ${x}
             WHERE ${x.lexeme} >= st.stem AND ${x.lexeme} < CASE WHEN st.prefix THEN left(st.stem, -1) || chr(ascii(right(st.stem, 1)) + 1) ELSE st.stem || chr(1) END
             ORDER BY ${x.lexeme} LIMIT 20
          ) AS found
      ),
      terms AS (
        SELECT st.i, bool_or(st.stem IS NOT NULL) AS stemmed,
               (SELECT array_agg(DISTINCT l.lexeme) FROM lexemes l WHERE l.i = st.i) AS lexemes
          FROM stems st GROUP BY st.i
      )
      SELECT i, stemmed, lexemes,
             (SELECT count(*) FROM (SELECT 1 FROM ${requestSearchWords} rw WHERE rw.lexeme = ANY (terms.lexemes) LIMIT ${cap}) AS c)::int AS n
        FROM terms`),
  );
  // A term of stop words only is left out of the tsquery too.
  const live = rows.filter((r) => r.stemmed);
  if (live.length === 0) return null;
  if (live.some((r) => !r.lexemes || r.lexemes.length === 0)) return { lexemes: [], complete: true, none: true };
  const rarest = live.reduce((a, b) => (Number(b.n) < Number(a.n) ? b : a));
  return { lexemes: rarest.lexemes!, complete: Number(rarest.n) < cap, none: false };
}

export interface RequestHit {
  id: string;
  seq: number;
  title: string;
  status: string;
  amount: string;
  currency: string;
  requesterId: string;
  organizationName: string;
  createdAt: string;
  score: number;
}

/**
 * Requests inside `condition` (scope and structured filters) matching the words (their stored,
 * weighted words, or the reference), or all of them for a search of filter words only. The newest
 * `candidates` matches are ranked, so a common word costs a bounded amount of work however long
 * the history is.
 */
export async function searchRequests(
  db: Db,
  params: {
    condition: SQL | undefined;
    match: 'words' | 'filters';
    text: string | null;
    tsquery: string | null;
    reference: number | null;
    limit: number;
    candidates: number;
    /** Look only through the newest this many requests inside `condition` (a common word fills a page there). */
    window?: number;
    /** Walk the newest requests carrying these lexemes, at most `cap` of them (planWordWalk). */
    walk?: { lexemes: readonly string[]; cap: number };
  },
): Promise<RequestHit[]> {
  const tsq = params.tsquery ? sql`to_tsquery('english'::regconfig, ${params.tsquery})` : sql`NULL::tsquery`;
  let match: SQL | undefined;
  if (params.match === 'words') {
    match = or(
      params.tsquery ? sql`${spendingRequests.searchVector} @@ ${tsq}` : undefined,
      params.reference !== null ? sql`${spendingRequests.seq} = ${params.reference}` : undefined,
    );
    if (!match) return [];
  }
  const where = and(params.condition, match);
  // Title words outweigh description words; an exact reference is a sure hit; a search made of
  // filter words only ranks newest first.
  const score = params.text
    ? sql`least(1, round((
        0.5 * word_similarity(${params.text}, c.title)
        + CASE WHEN to_tsvector('english'::regconfig, c.title) @@ ${tsq} THEN 0.3 ELSE 0 END
        + CASE WHEN c.search_vector @@ ${tsq} THEN 0.2 ELSE 0 END
        + CASE WHEN c.seq = ${params.reference ?? -1} THEN 1 ELSE 0 END)::numeric, 3))`
    : sql`0.9`;
  const statement = sql`
    SELECT c.id, c.seq::int AS seq, c.title, c.status, c.amount::text AS amount, c.currency, c.requester_id AS "requesterId",
           o.name AS "organizationName", c.created_at AS "createdAt", ${score}::float8 AS score
      FROM (
        SELECT ${spendingRequests.id} AS id, ${spendingRequests.seq} AS seq, ${spendingRequests.title} AS title,
               ${spendingRequests.status} AS status, ${spendingRequests.amount} AS amount, ${spendingRequests.currency} AS currency,
               ${spendingRequests.requesterId} AS requester_id, ${spendingRequests.organizationId} AS organization_id,
               ${spendingRequests.createdAt} AS created_at, ${spendingRequests.searchVector} AS search_vector
          FROM ${
            params.walk
              ? walked(params.condition, match, params.walk.lexemes, params.walk.cap, params.candidates)
              : params.window
                ? newest(params.condition, params.window)
                : params.match === 'filters'
                  ? newestByKeys(params.condition, params.candidates)
                  : spendingRequests
          }
         WHERE ${(params.window || params.walk || params.match === 'filters' ? match : where) ?? sql`true`}
         ORDER BY ${spendingRequests.createdAt} DESC, ${spendingRequests.seq} DESC
         LIMIT ${params.candidates}
      ) c
      JOIN ${organizations} o ON o.id = c.organization_id
     ORDER BY score DESC, c.created_at DESC, c.seq DESC
     LIMIT ${params.limit}`;
  // Over the whole history, a rare or misspelt word is estimated as common as any prefix, and the
  // planner would walk every request newest first looking for it (seconds on a million): the
  // words' index finds its few rows instead. The common words were served by the window already.
  const result = params.match === 'words' && !params.window && !params.walk ? await throughWordIndex(db, () => db.execute(statement)) : await db.execute(statement);
  return rowsOf<RequestHit & { createdAt: string | Date }>(result).map((r) => ({
    ...r,
    seq: Number(r.seq),
    score: Number(r.score),
    createdAt: new Date(r.createdAt).toISOString(),
  }));
}

/**
 * For each word, up to three words of the requests' titles it resembles (trigram similarity):
 * "taxxi" → "taxi". Reads request_title_words, a few thousand rows, through its trigram index, all
 * the words in one statement.
 */
export async function titleWordsLike(db: Db, words: string[]): Promise<Map<string, string[]>> {
  const unique = [...new Set(words)];
  const found = new Map<string, string[]>(unique.map((w) => [w, []]));
  if (unique.length === 0) return found;
  const t = requestTitleWords;
  const rows = rowsOf<{ query: string; word: string }>(
    await db.execute(sql`
      SELECT q.word AS query, alike.word
        FROM unnest(ARRAY[${sql.join(
          unique.map((w) => sql`${w}`),
          sql`, `,
        )}]::text[]) WITH ORDINALITY AS q(word, i)
        CROSS JOIN LATERAL (
          SELECT ${t.word} AS word, similarity(${t.word}, q.word) AS score FROM ${t} WHERE ${t.word} % q.word ORDER BY score DESC, ${t.word} LIMIT 3
        ) AS alike
       ORDER BY q.i, alike.score DESC, alike.word`),
  );
  for (const r of rows) found.get(r.query)?.push(r.word);
  return found;
}

/** Per word, how alike it is to the text; the mean over the words, so matching all of them ranks first. */
function wordsScore(words: string[], text: SQL): SQL {
  const parts = words.map((w) => sql`word_similarity(${w}, ${text})`);
  return sql`round(((${sql.join(parts, sql` + `)}) / ${words.length})::numeric, 3)::float8`;
}
function anyWord(words: string[], text: SQL): SQL {
  return or(...words.map((w) => sql`${w} <% ${text}`), sql`${text} ILIKE ${likePattern(words.join(' '))}`)!;
}

export interface NamedHit {
  id: string;
  name: string;
  detail: string | null;
  score: number;
}

export async function searchVendors(db: Db, params: { scope: SQL | undefined; words: string[]; limit: number }): Promise<NamedHit[]> {
  const text = sql`${vendors.name}`;
  const score = wordsScore(params.words, text);
  return db
    .select({ id: vendors.id, name: vendors.name, detail: organizations.name, score: sql<number>`${score}` })
    .from(vendors)
    .innerJoin(organizations, eq(organizations.id, vendors.organizationId))
    .where(and(params.scope, anyWord(params.words, text)))
    .orderBy(sql`${score} DESC`, asc(vendors.name))
    .limit(params.limit);
}

export async function searchUsers(db: Db, params: { scope: SQL | undefined; words: string[]; limit: number }) {
  const text = userSearchText(users);
  const score = wordsScore(params.words, text);
  return db
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      username: users.username,
      email: users.email,
      score: sql<number>`${score}`,
    })
    .from(users)
    .where(and(params.scope, anyWord(params.words, text)))
    .orderBy(sql`${score} DESC`, asc(users.lastName), asc(users.firstName))
    .limit(params.limit);
}

export async function searchBudgetLines(db: Db, params: { scope: SQL | undefined; words: string[]; limit: number; today: string }) {
  const text = sql`(${organizations.name} || ' ' || coalesce(${departments.name}, '') || ' ' || coalesce(${categories.name}, '') || ' ' || coalesce(${budgetLines.notes}, ''))`;
  const score = wordsScore(params.words, text);
  const current = sql`(${budgetLines.periodStart} <= ${params.today} AND ${budgetLines.periodEnd} >= ${params.today})`;
  return db
    .select({
      line: budgetLines,
      organizationName: organizations.name,
      departmentName: departments.name,
      categoryName: categories.name,
      score: sql<number>`${score}`,
    })
    .from(budgetLines)
    .innerJoin(organizations, eq(organizations.id, budgetLines.organizationId))
    .leftJoin(departments, eq(departments.id, budgetLines.departmentId))
    .leftJoin(categories, eq(categories.id, budgetLines.categoryId))
    .where(and(params.scope, anyWord(params.words, text)))
    .orderBy(sql`${score} DESC`, sql`${current} DESC`, sql`${budgetLines.periodStart} DESC`, asc(budgetLines.id))
    .limit(params.limit);
}

export async function searchPolicies(db: Db, params: { scope: SQL | undefined; words: string[]; limit: number }): Promise<NamedHit[]> {
  const text = sql`(${policyRules.name} || ' ' || coalesce(${policyRules.description}, ''))`;
  const score = wordsScore(params.words, sql`${policyRules.name}`);
  const overall = sql`greatest(${score}, ${wordsScore(params.words, text)} * 0.8)`;
  return db
    .select({ id: policyRules.id, name: policyRules.name, detail: policyRules.description, score: sql<number>`${overall}` })
    .from(policyRules)
    .where(and(params.scope, anyWord(params.words, text)))
    .orderBy(sql`${overall} DESC`, asc(policyRules.name))
    .limit(params.limit);
}
