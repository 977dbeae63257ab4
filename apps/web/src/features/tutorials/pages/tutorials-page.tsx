import { BookOpen, CheckCircle2, Search } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'wouter';
import { HELP_AUDIENCE_LABELS, HELP_AUDIENCE_VALUES, type HelpAudience } from '@outlay/contracts/tutorials';
import { SelectField } from '@/components/form/plain-fields';
import { PageHeader } from '@/components/page-header';
import { QueryState } from '@/components/query-state';
import { Card, CardContent } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { cn } from '@/lib/utils';
import { useTutorials } from '../api/tutorials';
import { ArticleMeta, ArticleView } from '../components/article-view';

const AUDIENCE_OPTIONS = HELP_AUDIENCE_VALUES.map((value) => ({ value, label: HELP_AUDIENCE_LABELS[value] }));

function useDebounced(value: string, ms = 250) {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const id = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(id);
  }, [value, ms]);
  return debounced;
}

/** /tutorials: the how-to articles shipped with the app, searched on the server; `?article=` opens one. */
export default function TutorialsPage() {
  const [params, setParams] = useSearchParams();
  const slug = params.get('article');
  const [search, setSearch] = useState(params.get('q') ?? '');
  const q = useDebounced(search.trim());
  const [role, setRole] = useState<HelpAudience | ''>('');
  const [tag, setTag] = useState('');
  const list = useTutorials({ q, role, tag });

  const open = (next: string | null) => {
    setParams((prev) => {
      const p = new URLSearchParams(prev);
      if (next) p.set('article', next);
      else p.delete('article');
      return p;
    });
    window.scrollTo({ top: 0 });
  };

  return (
    <div>
      <PageHeader
        title="Tutorials"
        description="Step-by-step guides to every part of Outlay: requests, approvals, budgets, payroll, reports and your account."
      />
      <div className="grid gap-6 lg:grid-cols-[minmax(0,22rem)_minmax(0,1fr)]">
        <section aria-label="Articles" className={cn('min-w-0', slug && 'hidden lg:block')}>
          <div className="flex flex-col gap-3">
            <div className="flex flex-col gap-1.5">
              <label htmlFor="tutorial-search" className="text-sm font-medium">
                Search the articles
              </label>
              <div className="relative">
                <Search
                  className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground"
                  aria-hidden="true"
                />
                <Input
                  id="tutorial-search"
                  type="search"
                  value={search}
                  onChange={(e) => setSearch(e.target.value)}
                  placeholder="e.g. delegate, recovery code, aging"
                  className="pl-9"
                />
              </div>
            </div>
            <div className="grid grid-cols-2 gap-3">
              <SelectField
                label="For"
                value={role}
                onChange={(v) => setRole(v as HelpAudience | '')}
                options={AUDIENCE_OPTIONS}
                placeholder="Everyone"
              />
              <SelectField
                label="Topic"
                value={tag}
                onChange={setTag}
                options={(list.data?.tags ?? []).map((t) => ({
                  value: t,
                  label: t.charAt(0).toUpperCase() + t.slice(1),
                }))}
                placeholder="All topics"
              />
            </div>
          </div>
          <div className="mt-4" aria-live="polite">
            <QueryState query={list} loadingLabel="Loading the articles…" errorMessage="Could not load the articles.">
              {(data) =>
                data.items.length === 0 ? (
                  <p className="rounded-md border border-dashed p-6 text-center text-sm text-muted-foreground">
                    No article matches {q ? `“${q}”` : 'these filters'}. Try fewer or other words.
                  </p>
                ) : (
                  <>
                    <p className="mb-2 text-xs text-muted-foreground">
                      {data.total === 1 ? '1 article' : `${data.total} articles`}
                      {q ? ` for “${q}”` : ''}
                    </p>
                    <ul className="flex flex-col gap-2" data-testid="tutorial-list">
                      {data.items.map((a) => (
                        <li key={a.slug}>
                          <button
                            type="button"
                            onClick={() => open(a.slug)}
                            aria-current={a.slug === slug ? 'page' : undefined}
                            className={cn(
                              'w-full rounded-lg border bg-card p-3 text-left shadow-xs transition-colors hover:bg-muted/50 focus-visible:outline-2 focus-visible:outline-ring',
                              a.slug === slug && 'border-primary ring-1 ring-primary',
                            )}
                          >
                            <span className="flex items-start justify-between gap-2">
                              <span className="font-medium">{a.title}</span>
                              {a.readAt && (
                                <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-emerald-700" aria-label="Read" />
                              )}
                            </span>
                            <span className="mt-1 block text-sm text-muted-foreground">{a.summary}</span>
                            {a.excerpt && (
                              <span className="mt-2 block border-l-2 border-primary/40 pl-2 text-xs italic text-muted-foreground">
                                {a.excerpt}
                              </span>
                            )}
                            <span className="mt-2 block">
                              <ArticleMeta article={{ ...a, readAt: null }} />
                            </span>
                          </button>
                        </li>
                      ))}
                    </ul>
                  </>
                )
              }
            </QueryState>
          </div>
        </section>
        <div className={cn('min-w-0', !slug && 'hidden lg:block')}>
          {slug ? (
            <ArticleView slug={slug} onBack={() => open(null)} onOpen={open} />
          ) : (
            <Card>
              <CardContent className="flex flex-col items-center gap-3 p-10 text-center">
                <BookOpen className="size-8 text-muted-foreground" aria-hidden="true" />
                <p className="font-medium">Choose an article</p>
                <p className="max-w-md text-sm text-muted-foreground">
                  Search by a word from the text, such as “delegate” or “recovery code”, or filter by who the article is
                  for.
                </p>
              </CardContent>
            </Card>
          )}
        </div>
      </div>
    </div>
  );
}
