import { TriangleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { isApiError, messageOf } from '@/lib/api-error';
import { cn } from '@/lib/utils';

/** What QueryState reads of a TanStack query result. */
export interface QueryLike<T> {
  data: T | undefined;
  isLoading: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
}

/**
 * A query that failed: the server's reason (or the fallback) and a Retry. `compact` is one line of
 * text for tight places (a picker's list, a card's corner) where a banner would not fit.
 */
export function QueryError({
  error,
  message,
  onRetry,
  compact,
}: {
  error: unknown;
  message: string;
  onRetry?: () => unknown;
  compact?: boolean;
}) {
  if (compact) {
    return (
      <p role="alert" className="flex flex-wrap items-center gap-x-2 text-sm text-destructive">
        <span>{messageOf(error, message)}</span>
        {onRetry && (
          <Button size="sm" variant="link" className="h-auto p-0" onClick={() => void onRetry()}>
            Retry
          </Button>
        )}
      </p>
    );
  }
  return (
    <Alert variant="danger" role="alert">
      <TriangleAlert aria-hidden="true" />
      <div className="flex flex-col gap-2">
        <span>{messageOf(error, message)}</span>
        {onRetry && (
          <Button size="sm" variant="outline" className="self-start" onClick={() => void onRetry()}>
            Retry
          </Button>
        )}
      </div>
    </Alert>
  );
}

/**
 * One query's loading and error states, then its data:
 *   <QueryState query={cycle} loadingLabel="Loading cycle times" errorMessage="Could not load the cycle times.">
 *     {(data) => <CycleTable data={data} />}
 *   </QueryState>
 * A 404 shows `notFoundMessage` (when given) without a Retry: asking again will not help.
 * `placeholder` shows a skeleton in the data's shape instead of the spinner, so the page does not
 * jump when the data arrives; `compact` keeps both states to one small line.
 */
export function QueryState<T>({
  query,
  loadingLabel,
  errorMessage,
  notFoundMessage,
  className,
  placeholder,
  compact,
  children,
}: {
  query: QueryLike<T>;
  loadingLabel: string;
  errorMessage: string;
  notFoundMessage?: string;
  /** Classes for the loading block (e.g. its height, so the page does not jump). */
  className?: string;
  placeholder?: ReactNode;
  compact?: boolean;
  children: (data: T) => ReactNode;
}) {
  // No data and no error is a query still waiting (a disabled one, e.g. a dialog closing), not a failure.
  if (query.isLoading || (!query.isError && query.data === undefined)) {
    if (placeholder !== undefined) {
      return (
        <div className={className} aria-busy="true">
          <span role="status" className="sr-only">
            {loadingLabel}
          </span>
          <div aria-hidden="true">{placeholder}</div>
        </div>
      );
    }
    return (
      <div
        className={cn(
          'flex items-center',
          compact ? 'gap-2 text-sm text-muted-foreground' : 'justify-center',
          className,
        )}
      >
        <Spinner label={loadingLabel} size={compact ? 'sm' : 'md'} />
      </div>
    );
  }
  if (query.isError || query.data === undefined) {
    if (notFoundMessage && isApiError(query.error) && query.error.status === 404) {
      return <QueryError error={null} message={notFoundMessage} compact={compact} />;
    }
    return <QueryError error={query.error} message={errorMessage} onRetry={query.refetch} compact={compact} />;
  }
  return children(query.data);
}
