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

/** A query that failed: the server's reason (or the fallback) and a Retry. */
export function QueryError({ error, message, onRetry }: { error: unknown; message: string; onRetry?: () => unknown }) {
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
 */
export function QueryState<T>({
  query,
  loadingLabel,
  errorMessage,
  notFoundMessage,
  className,
  children,
}: {
  query: QueryLike<T>;
  loadingLabel: string;
  errorMessage: string;
  notFoundMessage?: string;
  /** Classes for the loading block (e.g. its height, so the page does not jump). */
  className?: string;
  children: (data: T) => ReactNode;
}) {
  if (query.isLoading) {
    return (
      <div className={cn('flex items-center justify-center', className)}>
        <Spinner label={loadingLabel} />
      </div>
    );
  }
  if (query.isError || query.data === undefined) {
    if (notFoundMessage && isApiError(query.error) && query.error.status === 404) {
      return <QueryError error={null} message={notFoundMessage} />;
    }
    return <QueryError error={query.error} message={errorMessage} onRetry={query.refetch} />;
  }
  return children(query.data);
}
