import { CircleCheck, TriangleAlert, Wallet } from 'lucide-react';
import type { BudgetImpact as BudgetImpactData } from '@outlay/contracts/budgets';
import { compareMoney } from '@outlay/contracts/money';
import { QueryError } from '@/components/query-state';
import { Spinner } from '@/components/ui/spinner';
import { formatMoney } from '@/lib/format';
import { cn } from '@/lib/utils';

export interface BudgetImpactProps {
  /** The impact query: `GET /api/budgets/impact` or `GET /api/requests/:id/budget-impact`. */
  query: { data: BudgetImpactData | undefined; isLoading: boolean; isError: boolean; error: unknown; refetch: () => unknown };
  /** Shown instead of a figure until the form has an amount to ask about. */
  idleMessage?: string;
  /** True while typing (debounce) or fetching: the figures shown are about to change. */
  pending?: boolean;
  /** `compact` for a queue item: one line per budget line. */
  variant?: 'full' | 'compact';
  className?: string;
}

/**
 * What a request does to the budget lines it falls under: remaining before and after, and how
 * far over. The same block in the request forms, the approval dialog and the queue items.
 */
export function BudgetImpact({ query, idleMessage, pending = false, variant = 'full', className }: BudgetImpactProps) {
  const compact = variant === 'compact';
  const body = (() => {
    if (idleMessage) return <p className="text-sm text-muted-foreground">{idleMessage}</p>;
    if (query.isLoading && !query.data) {
      return (
        <p className="flex items-center gap-2 text-sm text-muted-foreground">
          <Spinner label="Checking the budget" /> Checking the budget…
        </p>
      );
    }
    if (query.isError && !query.data) return <QueryError error={query.error} message="Could not check the budget." onRetry={query.refetch} />;
    const data = query.data;
    if (!data) return null;
    if (data.lines.length === 0) return <p className="text-sm text-muted-foreground">No budget line covers this request</p>;
    return (
      <ul className={cn('flex flex-col', compact ? 'gap-1' : 'gap-3')}>
        {data.lines.map((line) => {
          const over = line.over !== null;
          const negativeBefore = compareMoney(line.remainingBefore, '0') < 0;
          return (
            <li key={line.budgetLineId} className={cn('min-w-0', compact ? 'text-xs' : 'text-sm')} data-testid="budget-impact-line">
              <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-0.5">
                <span className={cn('min-w-0 break-words', !compact && 'font-medium')}>{line.label}</span>
                {over ? (
                  <span className="inline-flex items-center gap-1 font-medium text-destructive">
                    <TriangleAlert className="size-3.5 shrink-0" aria-hidden="true" />
                    Over budget by {formatMoney(line.over, line.currency)}
                  </span>
                ) : (
                  <span className="inline-flex items-center gap-1 text-emerald-700 dark:text-emerald-400">
                    <CircleCheck className="size-3.5 shrink-0" aria-hidden="true" />
                    Within budget
                  </span>
                )}
              </div>
              {compact ? (
                <p className="text-muted-foreground">
                  Remaining {formatMoney(line.remainingBefore, line.currency)} → {formatMoney(line.remainingAfter, line.currency)}
                </p>
              ) : (
                <dl className="mt-1 grid grid-cols-2 gap-x-4 gap-y-1 text-muted-foreground sm:grid-cols-4">
                  <div>
                    <dt className="text-xs">Budget</dt>
                    <dd className="tabular-nums text-foreground">{formatMoney(line.amount, line.currency)}</dd>
                  </div>
                  <div>
                    <dt className="text-xs">Remaining before</dt>
                    <dd className={cn('tabular-nums', negativeBefore ? 'text-destructive' : 'text-foreground')}>{formatMoney(line.remainingBefore, line.currency)}</dd>
                  </div>
                  <div>
                    <dt className="text-xs">This request</dt>
                    <dd className="tabular-nums text-foreground">{formatMoney(line.requestAmount, line.currency)}</dd>
                  </div>
                  <div>
                    <dt className="text-xs">Remaining after</dt>
                    <dd className={cn('tabular-nums', over ? 'text-destructive' : 'text-foreground')}>{formatMoney(line.remainingAfter, line.currency)}</dd>
                  </div>
                </dl>
              )}
            </li>
          );
        })}
      </ul>
    );
  })();

  return (
    <section
      aria-label="Budget impact"
      aria-busy={pending || undefined}
      data-testid="budget-impact"
      className={cn('rounded-md border bg-card', compact ? 'px-3 py-2' : 'p-4', className)}
    >
      <h3 className={cn('mb-2 flex items-center gap-2 font-semibold', compact ? 'text-xs' : 'text-sm')}>
        <Wallet className="size-4 text-muted-foreground" aria-hidden="true" />
        Budget impact
        {pending && query.data && <Spinner className="scale-75" label="Updating the budget impact" />}
      </h3>
      <div aria-live="polite">{body}</div>
    </section>
  );
}
