// Queries of search: `(db, params)` functions that take the caller's scope as a condition.
import { and, or, sql, type SQL } from 'drizzle-orm';
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
import { jsonOf, literal, rowsOf } from '../../lib/sql.ts';
import { titleQuery, type QueryWord } from './search.words.ts';

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
    const [named] = rowsOf<{ organizations: unknown; categories: unknown }>(
      await tx.execute(
        sql`SELECT set_config('pg_trgm.word_similarity_threshold', ${String(WORD_SIMILARITY)}, true), set_config('enable_seqscan', 'off', true), set_config('jit', 'off', true),
          (SELECT coalesce(json_agg(json_build_object('id', o.id, 'name', o.name, 'code', o.code, 'currency', o.currency, 'kind', o.kind)), '[]')
             FROM ${organizations} o) AS organizations,
          (SELECT coalesce(json_agg(json_build_object('id', c.id, 'name', c.name, 'code', c.code)), '[]')
             FROM ${categories} c WHERE c.active) AS categories`,
      ),
    );
    return work(tx, {
      organizations: jsonOf<NamedThings['organizations']>(named?.organizations, []),
      categories: jsonOf<NamedThings['categories']>(named?.categories, []),
    });
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
function walked(
  condition: SQL | undefined,
  match: SQL | undefined,
  lexemes: readonly string[],
  cap: number,
  n: number,
): SQL {
  const w = requestSearchWords;
  const branches = lexemes.map(
    (l) =>
      sql`(SELECT ${w.seq} AS seq, ${w.createdAt} AS created_at FROM ${w} WHERE ${w.lexeme} = ${l} ORDER BY ${w.createdAt} DESC, ${w.seq} DESC LIMIT ${cap})`,
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

/** Words of a search as SQL rows (i: the term, word, prefix), every term's words in turn. */
function wordRows(terms: readonly (readonly QueryWord[])[]): SQL {
  return sql.join(
    terms.flatMap((t, i) => t.map((q) => sql`(${i}::int, ${q.word}::text, ${q.prefix}::boolean)`)),
    sql`, `,
  );
}

/**
 * The common table expressions that plan a walk over the words in `words` (i, word, prefix),
 * ending in `<p>plan` (i, stemmed, lexemes, n): each word's lexeme as the tsquery makes it
 * (to_tsvector of the word, so stemming and stop words agree), a prefix widened to the lexemes it
 * starts (at most 20, from request_search_lexemes: in byte order, the lexemes from the prefix up
 * to the prefix with its last letter moved one on), and how many request words carry a term's
 * lexemes, counted up to `cap` through the index.
 */
function planSteps(p: string, words: string, cap: number): SQL {
  const x = requestSearchLexemes;
  const [stems, lexemes, terms, plan] = ['stems', 'lexemes', 'terms', 'plan'].map((n) => sql.raw(`${p}${n}`));
  return sql`${stems} AS (
        SELECT i, prefix, (SELECT s.lexeme FROM unnest(to_tsvector('english'::regconfig, word)) AS s LIMIT 1) AS stem FROM ${sql.raw(words)}
      ),
      ${lexemes} AS (
        SELECT st.i, found.lexeme
          FROM ${stems} st
          CROSS JOIN LATERAL (
            SELECT ${x.lexeme} AS lexeme FROM ${x}
             WHERE ${x.lexeme} >= st.stem AND ${x.lexeme} < CASE WHEN st.prefix THEN left(st.stem, -1) || chr(ascii(right(st.stem, 1)) + 1) ELSE st.stem || chr(1) END
             ORDER BY ${x.lexeme} LIMIT 20
          ) AS found
      ),
      ${terms} AS (
        SELECT st.i, bool_or(st.stem IS NOT NULL) AS stemmed,
               (SELECT array_agg(DISTINCT l.lexeme) FROM ${lexemes} l WHERE l.i = st.i) AS lexemes
          FROM ${stems} st GROUP BY st.i
      ),
      ${plan} AS (
        SELECT i, stemmed, lexemes,
               (SELECT count(*) FROM (SELECT 1 FROM ${requestSearchWords} rw WHERE rw.lexeme = ANY (t.lexemes) LIMIT ${literal(cap)}) AS c)::int AS n
          FROM ${terms} t
      )`;
}

type PlanRow = { i: number; stemmed: boolean; lexemes: string[] | null; n: number | string };

/** The walk a plan's rows choose: the rarest term, none when a term is on no request, null for stop words alone. */
function walkOf(rows: readonly PlanRow[], cap: number): WordWalk | null {
  // A term of stop words only is left out of the tsquery too.
  const live = rows.filter((r) => r.stemmed);
  if (live.length === 0) return null;
  if (live.some((r) => !r.lexemes || r.lexemes.length === 0)) return { lexemes: [], complete: true, none: true };
  const rarest = live.reduce((a, b) => (Number(b.n) < Number(a.n) ? b : a));
  return { lexemes: rarest.lexemes!, complete: Number(rarest.n) < cap, none: false };
}

/**
 * Which term of the search to walk in time order (see `planSteps`): the rarest term finds the
 * newest matches soonest.
 */
export async function planWordWalk(
  db: Db,
  terms: readonly (readonly QueryWord[])[],
  cap: number,
): Promise<WordWalk | null> {
  if (terms.length === 0) return null;
  const rows = rowsOf<PlanRow>(
    await db.execute(
      sql`WITH words(i, word, prefix) AS (VALUES ${wordRows(terms)}), ${planSteps('', 'words', cap)} SELECT * FROM plan`,
    ),
  );
  return walkOf(rows, cap);
}

export interface WordPlan {
  /** The walk for the words as typed. */
  typed: WordWalk | null;
  /**
   * When a word of the search is on no request: each word's look-alike title words (as
   * `titleWordsLike`), the words searched with them, and the walk for those; null otherwise.
   */
  alike: { like: Map<string, string[]>; words: QueryWord[][]; walk: WordWalk | null } | null;
  /** The other kinds of record, when asked for. */
  others: OtherHits | null;
}

/**
 * `planWordWalk` for the words as typed and, in the same statement, what a misspelt search reads
 * next: when some word is on no request, each word's look-alike title words and the plan for the
 * words with them; and the other kinds of record (`searchOthers`). A misspelt search then takes
 * one statement where it took five.
 */
export async function planWords(
  db: Db,
  params: { terms: readonly (readonly QueryWord[])[]; cap: number; others?: OthersQuery },
): Promise<WordPlan> {
  const { terms, cap } = params;
  const t = requestTitleWords;
  const others = params.others ? otherColumns(params.others) : null;
  const [row] = rowsOf<
    { typed: unknown; alike: unknown; widened: unknown; widenedWords: unknown } & Record<string, unknown>
  >(
    await db.execute(sql`
      WITH words(i, word, prefix) AS (VALUES ${wordRows(terms)}),
      ${planSteps('typed_', 'words', cap)},
      alike AS (
        SELECT w.i, w.word AS query, found.word, found.rank
          FROM words w
          CROSS JOIN LATERAL (
            SELECT ${t.word} AS word, row_number() OVER (ORDER BY similarity(${t.word}, w.word) DESC, ${t.word}) AS rank
              FROM ${t}
             WHERE ${t.word} % w.word AND EXISTS (SELECT 1 FROM typed_plan tp WHERE tp.stemmed AND (tp.lexemes IS NULL OR cardinality(tp.lexemes) = 0))
             ORDER BY similarity(${t.word}, w.word) DESC, ${t.word} LIMIT 3
          ) AS found
         WHERE w.prefix AND length(w.word) >= 3
      ),
      widened_words AS (
        SELECT i, word, prefix FROM words
        UNION
        SELECT i, word, false FROM alike WHERE word <> query
      ),
      ${planSteps('widened_', 'widened_words', cap)}
      SELECT (SELECT json_agg(p) FROM typed_plan p) AS typed,
             CASE WHEN EXISTS (SELECT 1 FROM alike) THEN (SELECT json_agg(a ORDER BY a.i, a.rank) FROM alike a) END AS alike,
             CASE WHEN EXISTS (SELECT 1 FROM alike) THEN (SELECT json_agg(p) FROM widened_plan p) END AS widened,
             CASE WHEN EXISTS (SELECT 1 FROM alike) THEN (SELECT json_agg(w ORDER BY w.i, w.prefix DESC, w.word) FROM widened_words w) END AS "widenedWords"
             ${others ? sql`, ${others}` : sql``}`),
  );
  const typed = walkOf(jsonOf<PlanRow[]>(row?.typed, []), cap);
  const alikeRows = jsonOf<{ query: string; word: string }[] | null>(row?.alike, null);
  let alike: WordPlan['alike'] = null;
  // The look-alikes were read when a word is on no request (none found reads as an empty map).
  if (typed?.none) {
    const like = new Map<string, string[]>();
    for (const r of alikeRows ?? []) like.set(r.query, [...(like.get(r.query) ?? []), r.word]);
    const words = jsonOf<{ i: number; word: string; prefix: boolean }[]>(row?.widenedWords, []);
    const grouped = terms.map((_t, i) =>
      words.filter((w) => w.i === i).map((w) => ({ word: w.word, prefix: w.prefix })),
    );
    alike = { like, words: grouped, walk: walkOf(jsonOf<PlanRow[]>(row?.widened, []), cap) };
  }
  return { typed, alike, others: others ? othersOf(row) : null };
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

/** What `searchRequests` looks for, and where. */
export type RequestSearch = {
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
};

/**
 * Requests inside `condition` (scope and structured filters) matching the words (their stored,
 * weighted words, or the reference), or all of them for a search of filter words only. The newest
 * `candidates` matches are ranked, so a common word costs a bounded amount of work however long
 * the history is.
 */
export async function searchRequests(db: Db, params: RequestSearch): Promise<RequestHit[]> {
  const statement = requestStatement(params);
  if (!statement) return [];
  // Over the whole history, a rare or misspelt word is estimated as common as any prefix, and the
  // planner would walk every request newest first looking for it (seconds on a million): the
  // words' index finds its few rows instead. The common words were served by the window already.
  const result =
    params.match === 'words' && !params.window && !params.walk
      ? await throughWordIndex(db, () => db.execute(statement))
      : await db.execute(statement);
  return rowsOf<RequestHit & { createdAt: string | Date }>(result).map(hitOf);
}

const hitOf = (r: RequestHit & { createdAt: string | Date }): RequestHit => ({
  ...r,
  seq: Number(r.seq),
  score: Number(r.score),
  createdAt: new Date(r.createdAt).toISOString(),
});

/**
 * A search of filter words only, and the other kinds of record, in one statement: the requests
 * as a JSON array beside the others' arrays.
 */
export async function searchFiltersAndOthers(
  db: Db,
  params: Omit<RequestSearch, 'match' | 'walk' | 'window'>,
  others: OthersQuery,
): Promise<{ hits: RequestHit[]; others: OtherHits }> {
  const statement = requestStatement({ ...params, match: 'filters' })!;
  const [row] = rowsOf<Record<string, unknown>>(
    await db.execute(
      sql`SELECT (SELECT coalesce(json_agg(x ORDER BY x.score DESC, x."createdAt" DESC, x.seq DESC), '[]'::json) FROM (${statement}) AS x) AS hits, ${otherColumns(others)}`,
    ),
  );
  return { hits: jsonOf<(RequestHit & { createdAt: string })[]>(row?.hits, []).map(hitOf), others: othersOf(row) };
}

function requestStatement(params: RequestSearch): SQL | null {
  // As scalar subqueries, the queries are parsed once per run: PostgreSQL keeps a generic plan of a
  // prepared statement, and there a function of a parameter is evaluated again on every row.
  const tsq = params.tsquery ? sql`(SELECT to_tsquery('english'::regconfig, ${params.tsquery}))` : sql`NULL::tsquery`;
  const titleTsq = params.tsquery
    ? sql`(SELECT to_tsquery('english'::regconfig, ${titleQuery(params.tsquery)}))`
    : sql`NULL::tsquery`;
  let match: SQL | undefined;
  if (params.match === 'words') {
    match = or(
      params.tsquery ? sql`${spendingRequests.searchVector} @@ ${tsq}` : undefined,
      params.reference !== null ? sql`${spendingRequests.seq} = ${params.reference}` : undefined,
    );
    if (!match) return null;
  }
  const where = and(params.condition, match);
  // Title words outweigh description words; an exact reference is a sure hit; a search made of
  // filter words only ranks newest first.
  const score = params.text
    ? sql`least(1, round((
        0.5 * word_similarity(${params.text}, c.title)
        + CASE WHEN c.search_vector @@ ${titleTsq} THEN 0.3 ELSE 0 END
        + CASE WHEN c.search_vector @@ ${tsq} THEN 0.2 ELSE 0 END
        + CASE WHEN c.seq = ${params.reference ?? -1} THEN 1 ELSE 0 END)::numeric, 3))`
    : sql`0.9`;
  return sql`
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

export interface UserHit {
  id: string;
  firstName: string;
  lastName: string;
  username: string;
  email: string;
  score: number;
}

export interface BudgetLineHit {
  line: Pick<
    typeof budgetLines.$inferSelect,
    'id' | 'organizationId' | 'periodType' | 'periodStart' | 'amount' | 'currency'
  >;
  organizationName: string;
  fiscalYearStartMonth: number;
  departmentName: string | null;
  categoryName: string | null;
  score: number;
}

/** The kinds of record besides requests a search looks through, each with the caller's scope over it; a kind left out is not read. */
export interface OtherKinds {
  vendors?: { scope: SQL | undefined };
  users?: { scope: SQL | undefined };
  budgets?: { scope: SQL | undefined; today: string };
  policies?: { scope: SQL | undefined };
}

/** The other kinds of record a search reads, the words they are matched against, and how many of each. */
export interface OthersQuery {
  kinds: OtherKinds;
  words: string[];
  limit: number;
}

export interface OtherHits {
  vendors: NamedHit[];
  users: UserHit[];
  budgets: BudgetLineHit[];
  policies: NamedHit[];
}

/** The best `limit` rows of `rows` (a query with a `score` column) as one JSON array, best first. */
const topAsJson = (rows: SQL, order: SQL) =>
  sql`(SELECT coalesce(json_agg(h ORDER BY ${order}), '[]'::json) FROM (${rows}) AS h)`;

/**
 * Vendors, people, budget lines and policies alike to the words, at most `limit` of each kind, in
 * one statement of JSON arrays: four statements side by side cost the server four round trips
 * (docs/decisions/024). Each kind ranks by word similarity (the mean over the words), then by name;
 * budget lines in force on `today` before older ones.
 */
function otherColumns(params: OthersQuery): SQL {
  const { kinds, words, limit } = params;
  const none = sql`'[]'::json`;
  const parts: Record<keyof OtherHits, SQL> = { vendors: none, users: none, budgets: none, policies: none };
  if (kinds.vendors) {
    const score = wordsScore(words, sql`${vendors.name}`);
    parts.vendors = topAsJson(
      sql`SELECT ${vendors.id} AS id, ${vendors.name} AS name, ${organizations.name} AS detail, ${score} AS score
            FROM ${vendors} JOIN ${organizations} ON ${organizations.id} = ${vendors.organizationId}
           WHERE ${and(kinds.vendors.scope, anyWord(words, sql`${vendors.name}`))}
           ORDER BY score DESC, ${vendors.name} LIMIT ${literal(limit)}`,
      sql`h.score DESC, h.name`,
    );
  }
  if (kinds.users) {
    const text = userSearchText(users);
    const score = wordsScore(words, text);
    parts.users = topAsJson(
      sql`SELECT ${users.id} AS id, ${users.firstName} AS "firstName", ${users.lastName} AS "lastName", ${users.username} AS username,
                 ${users.email} AS email, ${score} AS score
            FROM ${users}
           WHERE ${and(kinds.users.scope, anyWord(words, text))}
           ORDER BY score DESC, ${users.lastName}, ${users.firstName} LIMIT ${literal(limit)}`,
      sql`h.score DESC, h."lastName", h."firstName"`,
    );
  }
  if (kinds.budgets) {
    const text = sql`(${organizations.name} || ' ' || coalesce(${departments.name}, '') || ' ' || coalesce(${categories.name}, '') || ' ' || coalesce(${budgetLines.notes}, ''))`;
    const score = wordsScore(words, text);
    const current = sql`(${budgetLines.periodStart} <= ${kinds.budgets.today} AND ${budgetLines.periodEnd} >= ${kinds.budgets.today})`;
    parts.budgets = topAsJson(
      sql`SELECT json_build_object('id', ${budgetLines.id}, 'organizationId', ${budgetLines.organizationId}, 'periodType', ${budgetLines.periodType},
                   'periodStart', ${budgetLines.periodStart}, 'amount', ${budgetLines.amount}::text, 'currency', ${budgetLines.currency}) AS line,
                 ${organizations.name} AS "organizationName", ${organizations.fiscalYearStartMonth} AS "fiscalYearStartMonth",
                 ${departments.name} AS "departmentName", ${categories.name} AS "categoryName",
                 ${score} AS score, ${current} AS "isCurrent", ${budgetLines.periodStart} AS "periodStart", ${budgetLines.id} AS id
            FROM ${budgetLines}
            JOIN ${organizations} ON ${organizations.id} = ${budgetLines.organizationId}
            LEFT JOIN ${departments} ON ${departments.id} = ${budgetLines.departmentId}
            LEFT JOIN ${categories} ON ${categories.id} = ${budgetLines.categoryId}
           WHERE ${and(kinds.budgets.scope, anyWord(words, text))}
           ORDER BY score DESC, "isCurrent" DESC, ${budgetLines.periodStart} DESC, ${budgetLines.id} LIMIT ${literal(limit)}`,
      sql`h.score DESC, h."isCurrent" DESC, h."periodStart" DESC, h.id`,
    );
  }
  if (kinds.policies) {
    const text = sql`(${policyRules.name} || ' ' || coalesce(${policyRules.description}, ''))`;
    const overall = sql`greatest(${wordsScore(words, sql`${policyRules.name}`)}, ${wordsScore(words, text)} * 0.8)`;
    parts.policies = topAsJson(
      sql`SELECT ${policyRules.id} AS id, ${policyRules.name} AS name, ${policyRules.description} AS detail, ${overall} AS score
            FROM ${policyRules}
           WHERE ${and(kinds.policies.scope, anyWord(words, text))}
           ORDER BY score DESC, ${policyRules.name} LIMIT ${literal(limit)}`,
      sql`h.score DESC, h.name`,
    );
  }
  return sql`${parts.vendors} AS vendors, ${parts.users} AS users, ${parts.budgets} AS budgets, ${parts.policies} AS policies`;
}

function othersOf(row: Record<string, unknown> | undefined): OtherHits {
  return {
    vendors: jsonOf<NamedHit[]>(row?.vendors, []),
    users: jsonOf<UserHit[]>(row?.users, []),
    budgets: jsonOf<BudgetLineHit[]>(row?.budgets, []),
    policies: jsonOf<NamedHit[]>(row?.policies, []),
  };
}

export async function searchOthers(db: Db, params: OthersQuery): Promise<OtherHits> {
  const [row] = rowsOf<Record<string, unknown>>(await db.execute(sql`SELECT ${otherColumns(params)}`));
  return othersOf(row);
}
