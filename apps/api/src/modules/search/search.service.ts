import { or, sql, type SQL } from 'drizzle-orm';
import {
  REQUEST_STATUS_LABELS,
  serverFormat,
  type SearchFilters,
  type SearchQuery,
  type SearchResponse,
  type SearchResult,
} from '@outlay/contracts';
import { policyRules, spendingRequests, users, vendors, budgetLines, type Db } from '@outlay/db';
import { requireAuth, type AuthInfo, type Ctx } from '../../lib/context.ts';
import { scopeCondition, scopeOf } from '../../lib/scope.ts';
import { labelOf } from '../budgets/index.ts';
import { filterCondition } from '../requests/index.ts';
import { getLibrary } from '../tutorials/index.ts';
import * as repo from './search.repository.ts';
import {
  prefixQuery,
  queryTerms,
  readWords,
  referenceOf,
  textWords,
  type QueryWord,
  type WordFilters,
} from './search.words.ts';

/** How many of the newest matching requests are ranked (bounds the work of a common word). */
const REQUEST_CANDIDATES = 100;
/** How many of the newest requests in scope a search looks through before the whole history. */
const RECENT_WINDOW = 5_000;
/** How many of the newest requests carrying the search's rarest word are walked before the other ways. */
const WALK_CAP = 2_000;
/** Each other kind of record adds at most this many results. */
const PER_KIND = 5;

/**
 * The requests the caller finds: their own, and those their requests.read.scope covers (the
 * lists they open: My Requests and Requests Management). Undefined means every request.
 */
function requestScope(auth: AuthInfo): SQL | undefined {
  const own = sql`${spendingRequests.requesterId} = ${auth.userId}`;
  if (!scopeOf(auth, 'requests.read.scope')) return own;
  const scoped = scopeCondition(auth, 'requests.read.scope', {
    organizationId: spendingRequests.organizationId,
    departmentId: spendingRequests.departmentId,
    ownerId: spendingRequests.requesterId,
  });
  return scoped === undefined ? undefined : or(own, scoped);
}

function policyScope(auth: AuthInfo): SQL | undefined {
  const s = scopeOf(auth, 'policies.manage');
  if (s === 'group') return undefined;
  return auth.organizationId
    ? or(sql`${policyRules.organizationId} = ${auth.organizationId}`, sql`${policyRules.organizationId} IS NULL`)
    : sql`false`;
}

const queryString = (params: Record<string, string | null | undefined>) => {
  const s = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v) s.set(k, v);
  return s.toString();
};

/** The request list with the words' filters applied, through the list's own address-bar parameters. */
function listHref(auth: AuthInfo, f: WordFilters, orgCurrency: string | null, groupCurrency: string): string | null {
  const any = f.status || f.organization || f.category || f.from || f.to || f.minAmount || f.maxAmount;
  if (!any) return null;
  if (scopeOf(auth, 'requests.read.scope')) {
    return `/requests-management?${queryString({
      q: f.text,
      status: f.status,
      organizationId: f.organization?.id,
      categoryId: f.category?.id,
      from: f.from,
      to: f.to,
      minAmount: f.minAmount,
      maxAmount: f.maxAmount,
    })}`;
  }
  // My Requests bounds amounts in the organization's currency: the group's bounds carry over only when they are the same.
  const sameCurrency = orgCurrency === groupCurrency;
  return `/requests?${queryString({
    q: f.text,
    status: f.status,
    categoryId: f.category?.id,
    from: f.from,
    to: f.to,
    minAmount: sameCurrency ? f.minAmount : null,
    maxAmount: sameCurrency ? f.maxAmount : null,
  })}`;
}

const searchWords = (words: string | null): string[] =>
  (words ?? '')
    .split(/\s+/)
    .filter((w) => w.length >= 2)
    .slice(0, 8);

/**
 * One box across requests, vendors, users, budgets, policies and tutorials, each only as far as
 * the caller may read it on its own screen; plain-word filters narrow the requests.
 */
export async function search(ctx: Ctx, query: SearchQuery): Promise<SearchResponse> {
  const auth = requireAuth(ctx);
  const today = ctx.now.toISOString().slice(0, 10);

  const { results, f, words, groupCurrency, orgCurrency } = await repo.withSearchSettings(ctx.db, async (db, named) => {
    const groupCurrency = named.organizations.find((o) => o.kind === 'group')?.currency ?? 'USD';
    const orgCurrency = named.organizations.find((o) => o.id === auth.organizationId)?.currency ?? null;
    const f = readWords(query.q, { now: ctx.now, organizations: named.organizations, categories: named.categories });
    const words = searchWords(f.words);
    const found: SearchResult[] = [];
    const done = () => ({ results: found, f, words, groupCurrency, orgCurrency });
    const budgetPermission = scopeOf(auth, 'budgets.manage')
      ? 'budgets.manage'
      : scopeOf(auth, 'budgets.read')
        ? 'budgets.read'
        : null;
    const kinds: repo.OtherKinds = {
      vendors: scopeOf(auth, 'vendors.manage')
        ? { scope: scopeCondition(auth, 'vendors.manage', { organizationId: vendors.organizationId }) }
        : undefined,
      users: scopeOf(auth, 'users.manage')
        ? {
            scope: scopeCondition(auth, 'users.manage', {
              organizationId: users.organizationId,
              departmentId: users.departmentId,
              ownerId: users.id,
            }),
          }
        : undefined,
      budgets: budgetPermission
        ? {
            scope: scopeCondition(auth, budgetPermission, {
              organizationId: budgetLines.organizationId,
              departmentId: budgetLines.departmentId,
            }),
            today,
          }
        : undefined,
      policies: scopeOf(auth, 'policies.manage') ? { scope: policyScope(auth) } : undefined,
    };
    const othersQuery =
      words.length > 0 && (kinds.vendors || kinds.users || kinds.budgets || kinds.policies)
        ? { kinds, words, limit: PER_KIND }
        : null;
    const read = await requests(db, auth, f, query.limit, othersQuery);
    found.push(...read.results);
    if (!othersQuery) return done();
    const other = read.others ?? (await repo.searchOthers(db, othersQuery));
    for (const r of other.vendors)
      found.push({
        type: 'vendor',
        id: r.id,
        title: r.name,
        href: `/vendor-management?${queryString({ q: r.name })}`,
        score: Number(r.score),
        subtitle: r.detail,
      });
    for (const r of other.users) {
      found.push({
        type: 'user',
        id: r.id,
        title: `${r.firstName} ${r.lastName}`,
        href: `/user-management?${queryString({ q: r.username })}`,
        score: Number(r.score),
        subtitle: `${r.username} · ${r.email}`,
      });
    }
    for (const r of other.budgets) {
      const href =
        budgetPermission === 'budgets.manage'
          ? `/budget-management?${queryString({ organizationId: r.line.organizationId, date: r.line.periodStart })}`
          : `/budget-vs-actual?${queryString({ organizationId: r.line.organizationId })}`;
      found.push({
        type: 'budget',
        id: r.line.id,
        title: labelOf(r),
        href,
        score: Number(r.score),
        subtitle: serverFormat.money(r.line.amount, r.line.currency),
      });
    }
    for (const r of other.policies)
      found.push({
        type: 'policy',
        id: r.id,
        title: r.name,
        href: `/policy-management?${queryString({ q: r.name })}`,
        score: Number(r.score),
        subtitle: r.detail,
      });
    return done();
  });
  results.push(...tutorials(words));

  results.sort((a, b) => b.score - a.score || typeRank(a) - typeRank(b) || a.title.localeCompare(b.title));
  const filters: SearchFilters = {
    text: f.text,
    status: f.status,
    organization: f.organization ? { id: f.organization.id, name: f.organization.name } : null,
    category: f.category ? { id: f.category.id, name: f.category.name } : null,
    from: f.from,
    to: f.to,
    minAmount: f.minAmount,
    maxAmount: f.maxAmount,
    currency: groupCurrency,
    href: listHref(auth, f, orgCurrency, groupCurrency),
  };
  return { results: results.slice(0, query.limit), filters };
}

const TYPE_ORDER = ['request', 'vendor', 'user', 'budget', 'policy', 'tutorial'];
const typeRank = (r: SearchResult) => TYPE_ORDER.indexOf(r.type);

/**
 * The requests the words find and, when `others` is given and a statement of the search can carry
 * them, the other kinds of record (null: read them apart).
 */
async function requests(
  db: Db,
  auth: AuthInfo,
  f: WordFilters,
  limit: number,
  others: repo.OthersQuery | null,
): Promise<{ results: SearchResult[]; others: repo.OtherHits | null }> {
  const hasFilter = Boolean(f.status || f.organization || f.category || f.from || f.to || f.minAmount || f.maxAmount);
  const reference = f.text ? referenceOf(f.text) : null;
  if (!f.text && !hasFilter) return { results: [], others: null };
  const condition = filterCondition(requestScope(auth), {
    status: f.status ?? undefined,
    organizationId: f.organization?.id,
    categoryId: f.category?.id,
    from: f.from ?? undefined,
    to: f.to ?? undefined,
    minAmount: f.minAmount ?? undefined,
    maxAmount: f.maxAmount ?? undefined,
  });
  const base = {
    condition,
    text: f.text,
    tsquery: f.text ? prefixQuery(f.text) : null,
    reference,
    limit,
    candidates: REQUEST_CANDIDATES,
  };
  if (!f.text) {
    if (!others)
      return {
        results: toResults(auth, f, await repo.searchRequests(db, { ...base, match: 'filters' })),
        others: null,
      };
    const read = await repo.searchFiltersAndOthers(db, base, others);
    return { results: toResults(auth, f, read.hits), others: read.others };
  }
  // The newest requests with the search's rarest word, walked in time order, answer most searches
  // at once; then the newest requests in scope (a common word fills the page there); only then the
  // whole history through the words' index. `plan` undefined: not planned (a reference is searched
  // the other ways); null: nothing to walk.
  const byWords = async (tsquery: string, plan: repo.WordWalk | null | undefined) => {
    if (plan?.none) return [];
    if (plan) {
      const walked = await repo.searchRequests(db, {
        ...base,
        tsquery,
        match: 'words',
        walk: { lexemes: plan.lexemes, cap: WALK_CAP },
      });
      if (walked.length >= limit || plan.complete) return walked;
    }
    const recent = await repo.searchRequests(db, { ...base, tsquery, match: 'words', window: RECENT_WINDOW });
    return recent.length >= limit ? recent : repo.searchRequests(db, { ...base, tsquery, match: 'words' });
  };
  const walkable = base.tsquery !== null && reference === null;
  // One statement plans the walk, reads what a misspelt word needs next, and the other records.
  const first = walkable
    ? await repo.planWords(db, { terms: queryTerms(f.text), cap: WALK_CAP, others: others ?? undefined })
    : null;
  let rows = base.tsquery ? await byWords(base.tsquery, first ? first.typed : undefined) : [];
  // A misspelt word finds nothing by its words: when the words find less than a page, each word
  // is also searched as the title words it resembles ("taxxi" as "taxi").
  if (rows.length < limit) {
    const like =
      first?.alike?.like ??
      (await repo.titleWordsLike(
        db,
        textWords(f.text).filter((w) => w.length >= 3),
      ));
    const tsquery = prefixQuery(f.text, like);
    if (tsquery && tsquery !== base.tsquery) {
      const terms = queryTerms(f.text, like);
      const planned = first?.alike && sameWords(first.alike.words, terms) ? first.alike.walk : undefined;
      const plan = walkable
        ? planned !== undefined
          ? planned
          : await repo.planWordWalk(db, terms, WALK_CAP)
        : undefined;
      const seen = new Set(rows.map((r) => r.id));
      const more = await byWords(tsquery, plan);
      rows = [...rows, ...more.filter((r) => !seen.has(r.id))].sort((a, b) => b.score - a.score).slice(0, limit);
    }
  }
  return { results: toResults(auth, f, rows), others: first?.others ?? null };
}

/** Whether two searches' terms hold the same words (the plan read in SQL is for the words the tsquery is made of). */
function sameWords(a: readonly (readonly QueryWord[])[], b: readonly (readonly QueryWord[])[]): boolean {
  const key = (terms: readonly (readonly QueryWord[])[]) =>
    terms
      .map((t) =>
        t
          .map((w) => `${w.prefix ? '*' : ''}${w.word}`)
          .sort()
          .join(' '),
      )
      .join('|');
  return key(a) === key(b);
}

function toResults(auth: AuthInfo, f: WordFilters, rows: repo.RequestHit[]): SearchResult[] {
  return rows.map((r, i) => {
    const reference = `REQ-${String(r.seq).padStart(6, '0')}`;
    const href = r.requesterId === auth.userId ? `/requests?id=${r.id}` : `/requests-management?id=${r.id}`;
    return {
      type: 'request' as const,
      id: r.id,
      title: `${reference} ${r.title}`,
      href,
      // Filter-only searches list newest first: keep that order among equal scores.
      score: f.text ? r.score : Math.round((r.score - i * 0.001) * 1000) / 1000,
      subtitle: `${REQUEST_STATUS_LABELS[r.status as keyof typeof REQUEST_STATUS_LABELS] ?? r.status} · ${serverFormat.money(r.amount, r.currency)} · ${r.organizationName}`,
    };
  });
}

/** The how-to articles everyone reads, from the tutorials' own index (typo tolerant and prefix). */
function tutorials(words: string[]): SearchResult[] {
  if (words.length === 0) return [];
  const lib = getLibrary();
  const hits = lib.index.search(words.join(' '), { combineWith: 'OR' }).slice(0, PER_KIND);
  const top = hits[0]?.score ?? 1;
  return hits.map((h) => {
    const article = lib.bySlug.get(String(h.id))!;
    return {
      type: 'tutorial' as const,
      id: article.slug,
      title: article.title,
      href: `/tutorials?${queryString({ article: article.slug })}`,
      score: Math.round((0.4 + 0.4 * (h.score / top) * Math.min(1, h.terms.length / words.length)) * 1000) / 1000,
      subtitle: article.summary,
    };
  });
}
