// Requests as lists read them: the summary row, the filters and the keyset-paged list.
import { and, asc, desc, eq, gte, inArray, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import { LIST_COUNT_CAP, type RequestListQuery } from '@outlay/contracts';
import { spendingRequests, type Db } from '@outlay/db';
import {
  afterCursor,
  cappedCountColumn,
  cappedTotal,
  decodeCursor,
  keysetPage,
  likePattern,
  totalOfPage,
  type KeysetSort,
} from '../../lib/lists.ts';
import { nameOf, personFieldOf, qualified } from '../../lib/names.ts';
import { isTitleWordSearch, requestKeys, titleWordHits } from './title-words.ts';
import { literalLimit } from '../../lib/sql.ts';
import { titleContains } from '../../lib/request-title.ts';
import type { RequestRow } from './requests.repository.ts';

/** "REQ-000123" computed in SQL, for search. */
const referenceSql = sql`('REQ-' || lpad(${spendingRequests.seq}::text, 6, '0'))`;

const organizationNameSql = nameOf('organizations', spendingRequests.organizationId) as SQL<string>;
const requesterSortSql = sql<string>`(SELECT lower(u.last_name || ' ' || u.first_name) FROM users u WHERE u.id = ${qualified(spendingRequests.requesterId)})`;

/**
 * The request columns a list row shows: not the description, justification, findings and policy
 * versions (JSON parsed for every row, then thrown away), which only the detail reads.
 */
export const summaryRequestColumns = {
  id: spendingRequests.id,
  seq: spendingRequests.seq,
  title: spendingRequests.title,
  status: spendingRequests.status,
  kind: spendingRequests.kind,
  amount: spendingRequests.amount,
  currency: spendingRequests.currency,
  fxRate: spendingRequests.fxRate,
  amountOrg: spendingRequests.amountOrg,
  orgCurrency: spendingRequests.orgCurrency,
  amountGroup: spendingRequests.amountGroup,
  groupCurrency: spendingRequests.groupCurrency,
  approvedAmount: spendingRequests.approvedAmount,
  organizationId: spendingRequests.organizationId,
  departmentId: spendingRequests.departmentId,
  categoryId: spendingRequests.categoryId,
  vendorId: spendingRequests.vendorId,
  requesterId: spendingRequests.requesterId,
  overBudget: spendingRequests.overBudget,
  overrunStatus: spendingRequests.overrunStatus,
  submittedAt: spendingRequests.submittedAt,
  decidedAt: spendingRequests.decidedAt,
  paidAt: spendingRequests.paidAt,
  createdAt: spendingRequests.createdAt,
  updatedAt: spendingRequests.updatedAt,
};
export type SummaryRequest = Pick<RequestRow, keyof typeof summaryRequestColumns>;

const summaryNames = {
  organizationName: organizationNameSql,
  departmentName: nameOf('departments', spendingRequests.departmentId),
  categoryName: nameOf('categories', spendingRequests.categoryId),
  vendorName: nameOf('vendors', spendingRequests.vendorId),
  requesterFirstName: personFieldOf('first_name', spendingRequests.requesterId) as SQL<string>,
  requesterLastName: personFieldOf('last_name', spendingRequests.requesterId) as SQL<string>,
  attachmentsCount: sql<number>`(SELECT count(*)::int FROM request_attachments ra WHERE ra.request_id = ${qualified(spendingRequests.id)})`,
  findingsCount: sql<number>`jsonb_array_length(${spendingRequests.policyFindings})::int`,
};

const summaryColumns = { request: summaryRequestColumns, ...summaryNames };

/** A pending request's current step and its open approvers, as a list row shows them. */
export interface CurrentStep {
  position: number;
  name: string;
  approvers: { id: string; firstName: string | null; lastName: string | null }[];
}

/**
 * The current step of a list row's request (null unless it is pending), read in the page's own
 * statement: a second statement for the page's steps cost a round trip more than its reading.
 * An active step only exists in the latest round.
 */
const currentStepSql = sql<
  CurrentStep | string | null
>`(SELECT json_build_object('position', s.position, 'name', s.name, 'approvers',
    coalesce((SELECT json_agg(json_build_object('id', a.approver_id, 'firstName', u.first_name, 'lastName', u.last_name) ORDER BY a.created_at)
      FROM approval_assignments a LEFT JOIN users u ON u.id = a.approver_id WHERE a.step_id = s.id AND a.status = 'open'), '[]'::json))
  FROM approval_steps s WHERE s.request_id = ${qualified(spendingRequests.id)} AND ${qualified(spendingRequests.status)} = 'pending' AND s.status = 'active'
  ORDER BY s.round DESC, s.position LIMIT 1)`;

export interface SummaryRow {
  request: SummaryRequest;
  organizationName: string;
  departmentName: string | null;
  categoryName: string | null;
  vendorName: string | null;
  requesterFirstName: string;
  requesterLastName: string;
  attachmentsCount: number;
  findingsCount: number;
  /** A list row's current step (see currentStepSql); PGlite may hand the JSON over as text. */
  currentStep: CurrentStep | string | null;
}

// Every sort pages by keyset on (sort, seq); nullable columns are coalesced to the end they sort to
// anyway (NULLS LAST ascending, first descending), so the order is the one people always had.
const SORTABLE: Record<string, KeysetSort> = {
  reference: { expression: sql`${spendingRequests.seq}`, type: 'bigint' },
  title: { expression: sql`lower(${spendingRequests.title})`, type: 'text' },
  status: { expression: sql`${spendingRequests.status}`, type: 'text' },
  amountOrg: { expression: sql`${spendingRequests.amountOrg}`, type: 'numeric' },
  amountGroup: { expression: sql`${spendingRequests.amountGroup}`, type: 'numeric' },
  createdAt: { expression: sql`${spendingRequests.createdAt}`, type: 'timestamptz' },
  submittedAt: {
    expression: sql`coalesce(${spendingRequests.submittedAt}, 'infinity'::timestamptz)`,
    type: 'timestamptz',
  },
  updatedAt: { expression: sql`${spendingRequests.updatedAt}`, type: 'timestamptz' },
  requester: { expression: requesterSortSql, type: 'text' },
  organization: { expression: organizationNameSql, type: 'text' },
};

export type RequestFilter = Partial<
  Pick<
    RequestListQuery,
    | 'q'
    | 'status'
    | 'organizationId'
    | 'departmentId'
    | 'categoryId'
    | 'vendorId'
    | 'requesterId'
    | 'from'
    | 'to'
    | 'minAmount'
    | 'maxAmount'
    | 'overBudget'
    | 'withFindings'
  >
> & {
  /** Bounds in the organization's currency (a requester's own list), where minAmount/maxAmount are the group's. */
  minAmountOrg?: string;
  maxAmountOrg?: string;
};

function nextDay(iso: string): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** Text that a reference ("REQ-" and six digits) may contain: a digit, or a piece of "REQ-". */
export function mayBeReference(q: string): boolean {
  return /\d/.test(q) || /^(?:r|re|req|e|eq|q|req-|eq-|q-|-)$/i.test(q.trim());
}

/** The list's filters as one condition inside `scope` (search narrows requests with the same filters). */
export function filterCondition(scope: SQL | undefined, f: RequestFilter): SQL | undefined {
  const parts: (SQL | undefined)[] = [scope];
  if (f.q) {
    const p = likePattern(f.q);
    // Only a search that can be part of a reference ("REQ-000578", "578", "REQ-") looks at references
    // too; any other is searched in titles alone, which their trigram index serves: with the reference
    // in an OR the whole history was read for a rare word.
    parts.push(mayBeReference(f.q) ? or(titleContains(p), sql`${referenceSql} ILIKE ${p}`) : titleContains(p));
  }
  if (f.status) parts.push(eq(spendingRequests.status, f.status));
  if (f.organizationId) parts.push(eq(spendingRequests.organizationId, f.organizationId));
  if (f.departmentId) parts.push(eq(spendingRequests.departmentId, f.departmentId));
  if (f.categoryId) parts.push(eq(spendingRequests.categoryId, f.categoryId));
  if (f.vendorId) parts.push(eq(spendingRequests.vendorId, f.vendorId));
  if (f.requesterId) parts.push(eq(spendingRequests.requesterId, f.requesterId));
  if (f.from) parts.push(gte(spendingRequests.createdAt, new Date(`${f.from}T00:00:00Z`)));
  if (f.to) parts.push(lt(spendingRequests.createdAt, new Date(`${nextDay(f.to)}T00:00:00Z`)));
  if (f.minAmount !== undefined) parts.push(gte(spendingRequests.amountGroup, f.minAmount));
  if (f.maxAmount !== undefined) parts.push(lte(spendingRequests.amountGroup, f.maxAmount));
  if (f.minAmountOrg !== undefined) parts.push(gte(spendingRequests.amountOrg, f.minAmountOrg));
  if (f.maxAmountOrg !== undefined) parts.push(lte(spendingRequests.amountOrg, f.maxAmountOrg));
  if (f.overBudget !== undefined) parts.push(eq(spendingRequests.overBudget, f.overBudget));
  if (f.withFindings !== undefined) {
    parts.push(
      f.withFindings
        ? sql`jsonb_array_length(${spendingRequests.policyFindings}) > 0`
        : sql`jsonb_array_length(${spendingRequests.policyFindings}) = 0`,
    );
  }
  return and(...parts);
}

function summaryBase<E extends Record<string, SQL>>(db: Pick<Db, 'select'>, extra: E) {
  return db.select({ ...summaryColumns, currentStep: currentStepSql, ...extra }).from(spendingRequests);
}

export interface RequestPage {
  rows: SummaryRow[];
  total: number;
  totalIsEstimate: boolean;
  nextCursor: string | null;
}

/**
 * One page of requests in `sort` order (newest first by default), then by reference. With a
 * `cursor` it reads on from the cursor's row (keyset: an index range, however deep the page);
 * without one it skips to `window.offset`, which page jumps on a short list still use. The total
 * counts at most LIST_COUNT_CAP + 1 rows; exports (`count: false`) skip it.
 */
export async function listRequests(
  db: Db,
  params: {
    scope: SQL | undefined;
    query: RequestFilter & { sort?: string; order?: 'asc' | 'desc'; cursor?: string };
    window: { limit: number; offset: number };
    count?: boolean;
  },
): Promise<RequestPage> {
  const condition = filterCondition(params.scope, params.query);
  const known = params.query.sort !== undefined && params.query.sort in SORTABLE;
  const key = known ? params.query.sort! : 'createdAt';
  const direction = known ? (params.query.order ?? 'asc') : 'desc';
  const sort = SORTABLE[key]!;
  const at = params.query.cursor ? decodeCursor(params.query.cursor, key, direction) : null;
  const by = direction === 'desc' ? desc : asc;
  const where = and(condition, at ? afterCursor(sort, spendingRequests.seq, direction, at) : undefined);
  const offset = at ? 0 : params.window.offset;
  const counting = params.count !== false;
  // A search in titles may pass over a long stretch of requests before a page of matches: the
  // page's keys are then found first, in the index that carries the title's lower-case copy
  // (created_at, seq INCLUDE title_folded), and only the page's rows are read. On the first page newest first, the walk that
  // counts the first matches already passes the page's keys, so one statement does both: the walk
  // is a CTE, counted and taken the page's keys from, and no key beyond the page leaves the database.
  const walking =
    Boolean(params.query.q) && counting && !at && offset === 0 && key === 'createdAt' && direction === 'desc';
  // A word searched across every request, newest first, is read from the titles' word index: the
  // newest requests walked by date may hold few of its matches (a word in 5% of a million titles
  // took 75,000 of them before its first thousand), its postings hold nothing else.
  const q = params.query.q;
  // The list's filters other than its search, apart from the caller's scope.
  const filtered = filterCondition(undefined, { ...params.query, q: undefined }) !== undefined;
  const byWords =
    isTitleWordSearch(q) && params.scope === undefined && !filtered && key === 'createdAt' && direction === 'desc';
  // A list only its scope narrows (or a word search) has one best plan whoever reads it: its
  // scope's (key, created_at, seq) index, or the word's postings. Its page size is written into the
  // statement, so PostgreSQL keeps the prepared statement's generic plan instead of planning every
  // page (0.4 ms of the database's 1.5 per list). Filters select very different numbers of rows
  // for different values, so a filtered page keeps its limit a parameter and is planned for its own
  // (docs/decisions/024).
  const planOnce = byWords || (!q && !filtered);
  const pageLimit = planOnce ? literalLimit(params.window.limit + 1) : params.window.limit + 1;
  const walk = db.$with('walk').as(
    byWords
      ? titleWordHits(db, q, LIST_COUNT_CAP + 1, null)
      : db
          .select(requestKeys(spendingRequests.seq, spendingRequests.createdAt))
          .from(spendingRequests)
          .where(condition)
          .orderBy(desc(spendingRequests.createdAt), desc(spendingRequests.seq))
          .limit(literalLimit(LIST_COUNT_CAP + 1)),
  );
  const keys = walking
    ? db.select({ seq: walk.seq }).from(walk).orderBy(desc(walk.createdAt), desc(walk.seq)).limit(pageLimit)
    : byWords && (at || offset === 0)
      ? db.select({ seq: sql<number>`keys.seq` }).from(titleWordHits(db, q, params.window.limit + 1, at).as('keys'))
      : q
        ? db
            .select({ seq: spendingRequests.seq })
            .from(spendingRequests)
            .where(where)
            .orderBy(by(sort.expression), by(spendingRequests.seq))
            .limit(pageLimit)
            .offset(offset)
        : null;
  // Counted on the requests alone, like the page: the filters and scopes only name
  // spending_requests columns. In the default order, so a search without an indexed filter
  // counts its first matches along the (created_at, seq) index instead of reading the whole table.
  // A word search counts its postings' first matches instead.
  const matching = () =>
    byWords
      ? titleWordHits(db, q, LIST_COUNT_CAP + 1, null)
      : db
          .select({ one: sql`1` })
          .from(spendingRequests)
          .where(condition)
          .orderBy(desc(spendingRequests.createdAt), desc(spendingRequests.seq));
  // A page read by its filters carries its count, and so does one read by the walk's keys; one read
  // by keys found otherwise counts apart.
  const countInPage = counting && (walking || !keys);
  const extra = {
    sortValue: sql<string>`(${sort.expression})::text`,
    ...(walking
      ? { cappedCount: sql<number>`(SELECT count(*)::int FROM ${walk})` }
      : countInPage
        ? { cappedCount: cappedCountColumn(matching()) }
        : {}),
  };
  const fetched = (await (walking ? summaryBase(db.with(walk), extra) : summaryBase(db, extra))
    .where(keys ? inArray(spendingRequests.seq, keys) : where)
    .orderBy(by(sort.expression), by(spendingRequests.seq))
    .limit(pageLimit)
    .offset(keys ? 0 : offset)) as (SummaryRow & { sortValue: string; cappedCount?: number })[];
  const { rows, nextCursor } = keysetPage(
    fetched,
    params.window.limit,
    (r) => ({ value: r.sortValue, tie: r.request.seq }),
    { sort: key, order: direction },
  );
  const counted = !counting
    ? { total: rows.length, totalIsEstimate: false }
    : countInPage
      ? await totalOfPage(db, fetched as { cappedCount: number }[], !at && offset === 0, matching)
      : await cappedTotal(db, matching());
  return { rows, nextCursor, ...counted };
}

/** A request with the names its screen shows, if `condition` (the caller's visibility) lets them see it. */
export async function findSummary(db: Db, id: string, condition: SQL | undefined) {
  const [row] = await db
    .select({
      ...summaryNames,
      request: spendingRequests,
      paidByFirstName: personFieldOf('first_name', spendingRequests.paidById),
      paidByLastName: personFieldOf('last_name', spendingRequests.paidById),
    })
    .from(spendingRequests)
    .where(and(eq(spendingRequests.id, id), condition));
  return (
    (row as
      | (Omit<SummaryRow, 'request'> & {
          request: RequestRow;
          paidByFirstName: string | null;
          paidByLastName: string | null;
        })
      | undefined) ?? null
  );
}
