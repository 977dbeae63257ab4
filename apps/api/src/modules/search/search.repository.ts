// Queries of search: `(db, params)` functions that take the caller's scope as a condition.
import { and, asc, eq, or, sql, type SQL } from 'drizzle-orm';
import {
  budgetLines,
  categories,
  departments,
  organizations,
  policyRules,
  requestTitleWords,
  spendingRequests,
  users,
  userSearchText,
  vendors,
  type Db,
} from '@outlay/db';
import { likePattern } from '../../lib/lists.ts';
import { rowsOf } from '../../lib/sql.ts';

/**
 * How alike a word of the search and a word of a name must be (pg_trgm's word_similarity, the
 * `<%` operator the trigram indexes answer): 0.5 forgives a letter or two in a short word, which
 * the default 0.6 does not.
 */
export const WORD_SIMILARITY = 0.5;

/**
 * Runs `work` in a transaction set up for search: the `<%` operator, the one the GIN trigram
 * indexes answer, reads its threshold from a setting; and sequential scans are priced out, since
 * the planner takes a trigram comparison for as cheap as an equality and would compare every
 * person's name (10,000 of them) rather than read the name index.
 */
export async function withTrigramThreshold<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction(async (raw) => {
    const tx = raw as unknown as Db;
    await tx.execute(sql`SELECT set_config('pg_trgm.word_similarity_threshold', ${String(WORD_SIMILARITY)}, true), set_config('enable_seqscan', 'off', true)`);
    return work(tx);
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
          FROM ${params.window ? newest(params.condition, params.window) : spendingRequests}
         WHERE ${(params.window ? match : where) ?? sql`true`}
         ORDER BY ${spendingRequests.createdAt} DESC, ${spendingRequests.seq} DESC
         LIMIT ${params.candidates}
      ) c
      JOIN ${organizations} o ON o.id = c.organization_id
     ORDER BY score DESC, c.created_at DESC, c.seq DESC
     LIMIT ${params.limit}`;
  // Over the whole history, a rare or misspelt word is estimated as common as any prefix, and the
  // planner would walk every request newest first looking for it (seconds on a million): the
  // words' index finds its few rows instead. The common words were served by the window already.
  const result = params.match === 'words' && !params.window ? await throughWordIndex(db, () => db.execute(statement)) : await db.execute(statement);
  return rowsOf<RequestHit & { createdAt: string | Date }>(result).map((r) => ({
    ...r,
    seq: Number(r.seq),
    score: Number(r.score),
    createdAt: new Date(r.createdAt).toISOString(),
  }));
}

/**
 * For each word, up to three words of the requests' titles it resembles (trigram similarity):
 * "taxxi" → "taxi". Reads request_title_words, a few thousand rows, through its trigram index.
 */
export async function titleWordsLike(db: Db, words: string[]): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>();
  for (const w of words) {
    const rows = await db
      .select({ word: requestTitleWords.word })
      .from(requestTitleWords)
      .where(sql`${requestTitleWords.word} % ${w}`)
      .orderBy(sql`similarity(${requestTitleWords.word}, ${w}) DESC`, asc(requestTitleWords.word))
      .limit(3);
    found.set(w, rows.map((r) => r.word));
  }
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

/** Every organization and category by name and code: the words a search may name them by. */
export async function namedThings(db: Db) {
  const [orgs, cats] = await Promise.all([
    db.select({ id: organizations.id, name: organizations.name, code: organizations.code, currency: organizations.currency, kind: organizations.kind }).from(organizations),
    db.select({ id: categories.id, name: categories.name, code: categories.code }).from(categories).where(eq(categories.active, true)),
  ]);
  return { organizations: orgs, categories: cats };
}
