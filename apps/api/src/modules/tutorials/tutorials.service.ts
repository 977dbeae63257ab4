import type { TutorialDetail, TutorialList, TutorialListQuery, TutorialSummary } from '@outlay/contracts';
import { AppError } from '../../lib/app-error.ts';
import { requireAuth, type Ctx } from '../../lib/context.ts';
import { excerptOf, getLibrary, type Article } from './tutorials.content.ts';
import * as repo from './tutorials.repository.ts';

function summaryOf(a: Article, readAt: Date | undefined, excerpt: string | null = null): TutorialSummary {
  return {
    slug: a.slug,
    title: a.title,
    summary: a.summary,
    roles: a.roles,
    tags: a.tags,
    readingMinutes: a.readingMinutes,
    readAt: readAt ? readAt.toISOString() : null,
    excerpt,
  };
}

/**
 * The articles, filtered by audience and tag; with `q`, a full-text search over title, summary,
 * tags and body (prefix and typo tolerant, every word must match), best first.
 */
export async function listTutorials(ctx: Ctx, query: TutorialListQuery): Promise<TutorialList> {
  const auth = requireAuth(ctx);
  const lib = getLibrary();
  const reads = await repo.readsOf(ctx.db, { userId: auth.userId });
  const keep = (a: Article) =>
    (!query.role || a.roles.includes(query.role)) && (!query.tag || a.tags.includes(query.tag));
  let found: { article: Article; excerpt: string | null }[];
  if (query.q) {
    found = lib.index
      .search(query.q)
      .map((hit) => ({
        article: lib.bySlug.get(String(hit.id))!,
        excerpt: excerptOf(lib.bySlug.get(String(hit.id))!, hit.terms),
      }))
      .filter((f) => keep(f.article));
  } else {
    found = lib.articles.filter(keep).map((article) => ({ article, excerpt: null }));
    if (query.sort === 'title')
      found.sort((a, b) => a.article.title.localeCompare(b.article.title) * (query.order === 'desc' ? -1 : 1));
  }
  const start = (query.page - 1) * query.pageSize;
  return {
    items: found
      .slice(start, start + query.pageSize)
      .map((f) => summaryOf(f.article, reads.get(f.article.slug), f.excerpt)),
    total: found.length,
    page: query.page,
    pageSize: query.pageSize,
    tags: [...new Set(lib.articles.flatMap((a) => a.tags))].sort(),
  };
}

/** One article; opening it counts as read for the caller (onboarding's "read a how-to article"). */
export async function getTutorial(ctx: Ctx, slug: string): Promise<TutorialDetail> {
  const auth = requireAuth(ctx);
  const lib = getLibrary();
  const article = lib.bySlug.get(slug);
  if (!article) throw new AppError('NOT_FOUND', { message: 'Article not found' });
  const readAt = await repo.recordRead(ctx.db, { userId: auth.userId, slug, now: ctx.now });
  const reads = await repo.readsOf(ctx.db, { userId: auth.userId });
  const related = lib.articles
    .filter((a) => a.slug !== slug)
    .map((a) => ({
      a,
      shared:
        a.tags.filter((t) => article.tags.includes(t)).length +
        a.roles.filter((r) => article.roles.includes(r)).length / 10,
    }))
    .filter((x) => x.shared >= 1)
    .sort((x, y) => y.shared - x.shared)
    .slice(0, 3)
    .map((x) => summaryOf(x.a, reads.get(x.a.slug)));
  return { ...summaryOf(article, readAt), body: article.body, headings: article.headings, related };
}
