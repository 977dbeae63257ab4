import { ArrowLeft, BookOpen, CheckCircle2, Clock } from 'lucide-react';
import { HELP_AUDIENCE_LABELS, HELP_AUDIENCE_VALUES, type TutorialSummary } from '@outlay/contracts/tutorials';
import { QueryState } from '@/components/query-state';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { formatDate } from '@/lib/format';
import { useTutorial } from '../api/tutorial';
import { ArticleMarkdown } from './article-markdown';

export function ArticleMeta({ article }: { article: Pick<TutorialSummary, 'readingMinutes' | 'readAt' | 'roles'> }) {
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted-foreground">
      <span className="inline-flex items-center gap-1">
        <Clock className="size-3.5" aria-hidden="true" />
        {article.readingMinutes} min read
      </span>
      {article.readAt && (
        <span className="inline-flex items-center gap-1 text-emerald-800">
          <CheckCircle2 className="size-3.5" aria-hidden="true" />
          Read on {formatDate(article.readAt)}
        </span>
      )}
      <span>
        For{' '}
        {article.roles.length === HELP_AUDIENCE_VALUES.length
          ? 'everyone'
          : article.roles.map((r) => HELP_AUDIENCE_LABELS[r].toLowerCase()).join(', ')}
      </span>
    </div>
  );
}

/** One article: its headings as a table of contents beside the text (below the title on a phone). */
export function ArticleView({
  slug,
  onBack,
  onOpen,
}: {
  slug: string;
  onBack: () => void;
  onOpen: (slug: string) => void;
}) {
  const query = useTutorial(slug);
  return (
    <article aria-labelledby="article-title" className="min-w-0">
      <Button variant="ghost" size="sm" className="mb-2 -ml-2 lg:hidden" onClick={onBack}>
        <ArrowLeft aria-hidden="true" />
        All articles
      </Button>
      <QueryState
        query={query}
        loadingLabel="Loading the article…"
        errorMessage="Could not load the article."
        notFoundMessage="This article does not exist (any more)."
      >
        {(a) => (
          <Card>
            <CardContent className="p-4 sm:p-6">
              <h2 id="article-title" className="text-2xl font-semibold tracking-tight">
                {a.title}
              </h2>
              <p className="mt-1 text-muted-foreground">{a.summary}</p>
              <div className="mt-3">
                <ArticleMeta article={a} />
              </div>
              <div className="mt-5 grid gap-6 xl:grid-cols-[minmax(0,1fr)_12rem]">
                <div className="min-w-0 xl:order-1">
                  <ArticleMarkdown source={a.body} />
                </div>
                {a.headings.length > 1 && (
                  <nav aria-label="On this page" className="xl:order-2">
                    <p className="text-xs font-semibold uppercase tracking-wide text-muted-foreground">On this page</p>
                    <ul className="mt-2 space-y-1 border-l pl-3 text-sm">
                      {a.headings.map((h) => (
                        <li key={h.id} className={h.depth === 3 ? 'pl-3' : ''}>
                          <a href={`#${h.id}`} className="text-muted-foreground hover:text-foreground hover:underline">
                            {h.text}
                          </a>
                        </li>
                      ))}
                    </ul>
                  </nav>
                )}
              </div>
              {a.related.length > 0 && (
                <section aria-labelledby="related-title" className="mt-8 border-t pt-4">
                  <h3 id="related-title" className="text-sm font-semibold">
                    Related articles
                  </h3>
                  <ul className="mt-2 flex flex-wrap gap-2">
                    {a.related.map((r) => (
                      <li key={r.slug}>
                        <Button variant="outline" size="sm" onClick={() => onOpen(r.slug)}>
                          <BookOpen aria-hidden="true" />
                          {r.title}
                        </Button>
                      </li>
                    ))}
                  </ul>
                </section>
              )}
              <div className="mt-6 flex flex-wrap gap-1.5">
                {a.tags.map((t) => (
                  <Badge key={t} variant="outline">
                    {t}
                  </Badge>
                ))}
              </div>
            </CardContent>
          </Card>
        )}
      </QueryState>
    </article>
  );
}
