import { SearchX, TriangleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { messageOf } from '@/lib/api-error';

/** The list could not be loaded: the server's reason and a Retry. */
export function DataTableError({
  entityName,
  error,
  onRetry,
}: {
  entityName: string;
  error: unknown;
  onRetry: () => void;
}) {
  return (
    <div role="alert" className="mx-auto flex max-w-md flex-col items-center gap-3 text-center">
      <TriangleAlert className="size-8 text-destructive" aria-hidden="true" />
      <p className="font-medium">Could not load {entityName}</p>
      <p className="text-sm text-muted-foreground">{messageOf(error, 'The server did not answer.')}</p>
      <Button variant="outline" size="sm" onClick={onRetry}>
        Retry
      </Button>
    </div>
  );
}

/** No rows: with filters on, a way to clear them; otherwise the screen's own empty message. */
export function DataTableEmpty({
  entityName,
  filtered,
  onClearFilters,
  empty,
}: {
  entityName: string;
  filtered: boolean;
  onClearFilters: () => void;
  empty?: ReactNode;
}) {
  if (!filtered) return empty ?? <p className="text-center text-sm text-muted-foreground">No {entityName} yet.</p>;
  return (
    <div className="mx-auto flex max-w-md flex-col items-center gap-3 text-center">
      <SearchX className="size-8 text-muted-foreground" aria-hidden="true" />
      <p className="font-medium">No {entityName} match your filters</p>
      <Button variant="outline" size="sm" onClick={onClearFilters}>
        Clear filters
      </Button>
    </div>
  );
}

/** Placeholder rows while the first page loads. */
export function TableSkeletonRows({ rows, columnIds }: { rows: number; columnIds: readonly string[] }) {
  return Array.from({ length: rows }, (_, i) => (
    <tr key={`skeleton-${i}`} className="border-b last:border-b-0" aria-hidden="true">
      {columnIds.map((id) => (
        <td key={id} className="px-3 py-3">
          <div className="h-4 w-full min-w-12 max-w-40 animate-pulse rounded bg-slate-200" />
        </td>
      ))}
    </tr>
  ));
}

/** Placeholder cards while the first page loads. */
export function CardSkeletons() {
  return Array.from({ length: 3 }, (_, i) => (
    <div key={`skeleton-${i}`} className="flex flex-col gap-2 rounded-xl border bg-card p-4" aria-hidden="true">
      <div className="h-3 w-24 animate-pulse rounded bg-slate-200" />
      <div className="h-4 w-3/4 animate-pulse rounded bg-slate-200" />
      <div className="h-3 w-1/2 animate-pulse rounded bg-slate-200" />
    </div>
  ));
}
