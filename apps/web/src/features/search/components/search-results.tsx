import { BookOpen, Building2, FileText, PiggyBank, ShieldCheck, UserRound } from 'lucide-react';
import type { KeyboardEvent, ReactNode } from 'react';
import { Link } from 'wouter';
import { SEARCH_RESULT_TYPE_LABELS, type SearchResult, type SearchResultType } from '@outlay/contracts/search';
import { Badge, type BadgeProps } from '@/components/ui/badge';

const TYPE_STYLE: Record<SearchResultType, { icon: ReactNode; variant: BadgeProps['variant'] }> = {
  request: { icon: <FileText aria-hidden="true" className="size-3" />, variant: 'primary' },
  vendor: { icon: <Building2 aria-hidden="true" className="size-3" />, variant: 'purple' },
  user: { icon: <UserRound aria-hidden="true" className="size-3" />, variant: 'success' },
  budget: { icon: <PiggyBank aria-hidden="true" className="size-3" />, variant: 'warning' },
  policy: { icon: <ShieldCheck aria-hidden="true" className="size-3" />, variant: 'danger' },
  tutorial: { icon: <BookOpen aria-hidden="true" className="size-3" />, variant: 'default' },
};

export function SearchTypeBadge({ type }: { type: SearchResultType }) {
  const style = TYPE_STYLE[type];
  return (
    <Badge variant={style.variant} className="shrink-0 self-start sm:self-auto">
      {style.icon}
      {SEARCH_RESULT_TYPE_LABELS[type]}
    </Badge>
  );
}

/** Arrow keys move between the results' links (and back up to the search box from the first). */
export function moveFocus(event: KeyboardEvent<HTMLElement>, list: HTMLElement | null, input: HTMLElement | null) {
  if (!list) return;
  const links = [...list.querySelectorAll<HTMLAnchorElement>('a[data-result]')];
  if (links.length === 0) return;
  const at = links.indexOf(document.activeElement as HTMLAnchorElement);
  let next: HTMLElement | null | undefined;
  if (event.key === 'ArrowDown') next = links[Math.min(at + 1, links.length - 1)];
  else if (event.key === 'ArrowUp') next = at <= 0 ? input : links[at - 1];
  else if (event.key === 'Home' && at >= 0) next = links[0];
  else if (event.key === 'End' && at >= 0) next = links[links.length - 1];
  if (!next) return;
  event.preventDefault();
  next.focus();
}

/** The ranked results, best first, each with its kind. */
export function SearchResultList({
  results,
  listRef,
  onKeyDown,
}: {
  results: SearchResult[];
  listRef: (el: HTMLOListElement | null) => void;
  onKeyDown: (e: KeyboardEvent<HTMLElement>) => void;
}) {
  return (
    <ol ref={listRef} aria-label="Search results" className="divide-y rounded-lg border bg-card" onKeyDown={onKeyDown}>
      {results.map((r) => (
        <li key={`${r.type}:${r.id}`}>
          <Link
            href={r.href}
            data-result={r.type}
            className="flex min-w-0 flex-col gap-1 px-4 py-3 outline-none hover:bg-slate-50 focus-visible:bg-blue-50 focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset sm:flex-row sm:items-center sm:gap-3"
          >
            <SearchTypeBadge type={r.type} />
            <span className="min-w-0 flex-1">
              <span className="block truncate font-medium text-foreground">{r.title}</span>
              {r.subtitle && <span className="block truncate text-sm text-muted-foreground">{r.subtitle}</span>}
            </span>
          </Link>
        </li>
      ))}
    </ol>
  );
}
