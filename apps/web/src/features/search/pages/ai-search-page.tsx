import { ListFilter, Search } from 'lucide-react';
import { useRef, type KeyboardEvent } from 'react';
import { Link, useSearchParams } from 'wouter';
import type { SearchFilters } from '@outlay/contracts/search';
import { PageHeader } from '@/components/page-header';
import { QueryState } from '@/components/query-state';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { formatDate, formatMoney, plural } from '@/lib/format';
import { useDebounced } from '@/lib/use-debounced';
import { useSearch } from '../api/search-records';
import { moveFocus, SearchResultList } from '../components/search-results';

const EXAMPLES = [
  'travel over 500 last month in Logistics',
  'taxxi',
  'pending software',
  'Skyline Travel',
  'delegating',
];

/** The filters the words were read as, in words again: "Travel · Meridian Logistics · over $500.00". */
function describe(f: SearchFilters): string[] {
  const parts: string[] = [];
  if (f.category) parts.push(f.category.name);
  if (f.organization) parts.push(f.organization.name);
  if (f.status) parts.push(f.status.replace('_', ' '));
  if (f.minAmount && f.maxAmount)
    parts.push(`${formatMoney(f.minAmount, f.currency)} to ${formatMoney(f.maxAmount, f.currency)}`);
  else if (f.minAmount) parts.push(`over ${formatMoney(f.minAmount, f.currency)}`);
  else if (f.maxAmount) parts.push(`under ${formatMoney(f.maxAmount, f.currency)}`);
  if (f.from && f.to)
    parts.push(f.from === f.to ? (formatDate(f.from) ?? f.from) : `${formatDate(f.from)} – ${formatDate(f.to)}`);
  if (f.text) parts.push(`“${f.text}”`);
  return parts;
}

/** /ai-search: one box across requests, vendors, people, budgets, policies and tutorials. */
export default function AiSearchPage() {
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const debounced = useDebounced(q, 250);
  const search = useSearch(debounced, 30);
  const input = useRef<HTMLInputElement | null>(null);
  const list = useRef<HTMLOListElement | null>(null);
  const setQ = (value: string) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (value) next.set('q', value);
        else next.delete('q');
        return next;
      },
      { replace: true },
    );
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => moveFocus(e, list.current, input.current);
  const typing = q.trim() !== debounced.trim();

  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader
        title="AI Search"
        description="One box across requests, vendors, people, budgets, policies and tutorials. Misspellings are forgiven, and filters can be typed in plain words."
      />
      <form role="search" onSubmit={(e) => e.preventDefault()} className="relative mb-4">
        <Search
          className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground"
          aria-hidden="true"
        />
        <Input
          ref={input}
          type="search"
          value={q}
          onChange={(e) => setQ(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown') moveFocus(e, list.current, input.current);
          }}
          aria-label="Search"
          aria-describedby="search-hint"
          placeholder="Try “travel over 500 last month in Logistics”"
          className="h-12 pl-9 text-base"
          autoFocus
          maxLength={200}
        />
      </form>
      <p id="search-hint" className="sr-only">
        Results appear as you type. Press the down arrow to move into them and Enter to open one.
      </p>

      {!debounced.trim() ? (
        <div className="rounded-lg border border-dashed bg-card p-6 text-sm text-muted-foreground">
          <p className="mb-3">
            Search by words, a reference such as REQ-000123, a name, or filters in plain words: a category or
            organization, “over 500”, “last month”, “pending”.
          </p>
          <p className="mb-2 font-medium text-foreground">Try:</p>
          <ul className="flex flex-wrap gap-2">
            {EXAMPLES.map((example) => (
              <li key={example}>
                <Button type="button" size="sm" variant="outline" onClick={() => setQ(example)}>
                  {example}
                </Button>
              </li>
            ))}
          </ul>
        </div>
      ) : (
        <QueryState
          query={search}
          loadingLabel="Searching"
          errorMessage="The search could not be run."
          className="py-10"
        >
          {(data) => (
            <div aria-busy={typing || search.isFetching} className="flex flex-col gap-3">
              {data.filters.href && (
                <div
                  className="flex flex-col gap-2 rounded-lg border bg-blue-50/60 px-4 py-3 text-sm sm:flex-row sm:items-center sm:justify-between"
                  data-testid="search-filters"
                >
                  <p className="flex min-w-0 items-start gap-2">
                    <ListFilter className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
                    <span>
                      <span className="font-medium">Requests filtered by </span>
                      {describe(data.filters).join(' · ')}
                    </span>
                  </p>
                  <Button asChild size="sm" variant="outline" className="self-start sm:self-auto">
                    <Link href={data.filters.href}>Open in Requests</Link>
                  </Button>
                </div>
              )}
              <p role="status" className="text-sm text-muted-foreground">
                {data.results.length === 0
                  ? `Nothing found for “${debounced.trim()}”.`
                  : plural(data.results.length, 'result')}
              </p>
              {data.results.length > 0 && (
                <SearchResultList results={data.results} listRef={(el) => (list.current = el)} onKeyDown={onKeyDown} />
              )}
            </div>
          )}
        </QueryState>
      )}
    </div>
  );
}
