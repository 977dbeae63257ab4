import { CircleCheck, TriangleAlert, Wallet } from 'lucide-react';
import type { BudgetImpact as BudgetImpactData } from '@outlay/contracts/budgets';
import { addMoney, compareMoney, parseMoney } from '@outlay/contracts/money';
import { QueryError } from '@/components/query-state';
import { Spinner } from '@/components/ui/spinner';
import { formatMoney } from '@/lib/format';
import { cn } from '@/lib/utils';

export interface BudgetImpactProps {
  /** The impact query: `GET /api/budgets/impact` or `GET /api/requests/:id/budget-impact`. */
  query: {
    data: BudgetImpactData | undefined;
    isLoading: boolean;
    isError: boolean;
    error: unknown;
    refetch: () => unknown;
  };
  /** Shown instead of a figure until the form has an amount to ask about. */
  idleMessage?: string;
  /** True while typing (debounce) or fetching: the figures shown are about to change. */
  pending?: boolean;
  /** `compact` for a queue item: one line per budget line, a small meter and what is left. */
  variant?: 'full' | 'compact';
  /**
   * Compact only: what the row around it already says, left off the start of each line's name
   * (a queue row names the organization, so "Meridian Logistics · Sales · Dec 2026" reads "Sales · Dec 2026").
   */
  knownPrefix?: string;
  /** The full block's heading level, under the heading of what it sits in (the form's sections are h2). */
  headingLevel?: 2 | 3;
  className?: string;
}

/** How much of the line is used before this request and by it, as shares of the line (0 to 1, capped). */
function shares(line: BudgetImpactData['lines'][number]): { before: number; request: number } {
  const amount = parseMoney(line.amount);
  if (amount.lte(0)) return { before: 1, request: 0 };
  const clamp = (n: number) => Math.min(1, Math.max(0, n));
  const before = clamp(parseMoney(line.consumedBefore).div(amount).toNumber());
  const after = clamp(addMoney(line.consumedBefore, line.requestAmount).div(amount).toNumber());
  return { before, request: after - before };
}

/**
 * A queue item's lines, one line each: a meter of the line used before (grey) and by this
 * request (coloured), the line's name, and what is left after the request or how far over it
 * goes. The approval dialog has every figure; the queue only needs to be read at a glance.
 */
function CompactLines({ lines, knownPrefix }: { lines: BudgetImpactData['lines']; knownPrefix?: string }) {
  const shortLabel = (label: string) =>
    knownPrefix && label.startsWith(`${knownPrefix} · `) ? label.slice(knownPrefix.length + 3) : label;
  return (
    <ul className="flex flex-col gap-0.5">
      {lines.map((line) => {
        const over = line.over !== null;
        const { before, request } = shares(line);
        const tight = !over && before + request >= 0.9;
        return (
          <li
            key={line.budgetLineId}
            className="flex min-w-0 items-center gap-1.5 whitespace-nowrap text-xs"
            title={`${line.label}: remaining ${formatMoney(line.remainingBefore, line.currency)} → ${formatMoney(line.remainingAfter, line.currency)} of ${formatMoney(line.amount, line.currency)}`}
            data-testid="budget-impact-line"
          >
            <span
              className="relative h-1.5 w-8 shrink-0 overflow-hidden rounded-full bg-muted"
              aria-hidden="true"
              data-testid="budget-impact-meter"
            >
              <span className="absolute inset-y-0 left-0 bg-slate-400" style={{ width: `${before * 100}%` }} />
              <span
                className={cn(
                  'absolute inset-y-0',
                  over ? 'bg-destructive' : tight ? 'bg-amber-500' : 'bg-emerald-600',
                )}
                style={{ left: `${before * 100}%`, width: `${request * 100}%` }}
              />
            </span>
            <span className="min-w-0 flex-1 truncate text-muted-foreground">{shortLabel(line.label)}</span>
            {over ? (
              <span className="inline-flex shrink-0 items-center gap-1 font-medium text-destructive">
                <TriangleAlert className="size-3 shrink-0" aria-hidden="true" />
                Over by {formatMoney(line.over, line.currency)}
              </span>
            ) : (
              <span
                className={cn(
                  'inline-flex shrink-0 items-center gap-1 tabular-nums',
                  tight ? 'text-amber-800 dark:text-amber-300' : 'text-emerald-700 dark:text-emerald-400',
                )}
              >
                <CircleCheck className="size-3 shrink-0" aria-hidden="true" />
                {formatMoney(line.remainingAfter, line.currency)} left
              </span>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/**
 * What a request does to the budget lines it falls under: remaining before and after, and how
 * far over. The same block in the request forms, the approval dialog and the queue items.
 */
export function BudgetImpact({
  query,
  idleMessage,
  pending = false,
  variant = 'full',
  knownPrefix,
  headingLevel = 3,
  className,
}: BudgetImpactProps) {
  const compact = variant === 'compact';
  const body = (() => {
    if (idleMessage) return <p className="text-sm text-muted-foreground">{idleMessage}</p>;
    if (query.isLoading && !query.data) {
      return (
        <p className={cn('flex items-center gap-2 text-muted-foreground', compact ? 'text-xs' : 'text-sm')}>
          <Spinner label="Checking the budget" /> Checking the budget…
        </p>
      );
    }
    if (query.isError && !query.data)
      return <QueryError error={query.error} message="Could not check the budget." onRetry={query.refetch} />;
    const data = query.data;
    if (!data) return null;
    if (data.lines.length === 0)
      return (
        <p className={cn('text-muted-foreground', compact ? 'text-xs' : 'text-sm')}>
          No budget line covers this request
        </p>
      );
    if (compact) return <CompactLines lines={data.lines} knownPrefix={knownPrefix} />;
    return (
      <ul className="flex flex-col gap-3">
        {data.lines.map((line) => {
          const over = line.over !== null;
          const negativeBefore = compareMoney(line.remainingBefore, '0') < 0;
          return (
            <li key={line.budgetLineId} className="min-w-0 text-sm" data-testid="budget-impact-line">
              <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-0.5">
                <span className="min-w-0 break-words font-medium">{line.label}</span>
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
              <dl className="mt-1 grid grid-cols-2 gap-x-4 gap-y-1 text-muted-foreground sm:grid-cols-4">
                <div>
                  <dt className="text-xs">Budget</dt>
                  <dd className="tabular-nums text-foreground">{formatMoney(line.amount, line.currency)}</dd>
                </div>
                <div>
                  <dt className="text-xs">Remaining before</dt>
                  <dd className={cn('tabular-nums', negativeBefore ? 'text-destructive' : 'text-foreground')}>
                    {formatMoney(line.remainingBefore, line.currency)}
                  </dd>
                </div>
                <div>
                  <dt className="text-xs">This request</dt>
                  <dd className="tabular-nums text-foreground">{formatMoney(line.requestAmount, line.currency)}</dd>
                </div>
                <div>
                  <dt className="text-xs">Remaining after</dt>
                  <dd className={cn('tabular-nums', over ? 'text-destructive' : 'text-foreground')}>
                    {formatMoney(line.remainingAfter, line.currency)}
                  </dd>
                </div>
              </dl>
            </li>
          );
        })}
      </ul>
    );
  })();

  if (compact) {
    // No heading, landmark or live region: a queue has one of these on every row. The group's name says what the lines are.
    return (
      <div
        role="group"
        aria-label="Budget impact"
        aria-busy={pending || undefined}
        data-testid="budget-impact"
        className={cn('min-w-0', className)}
      >
        {body}
      </div>
    );
  }
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <section
      aria-label="Budget impact"
      aria-busy={pending || undefined}
      data-testid="budget-impact"
      className={cn('rounded-md border bg-card p-4', className)}
    >
      <Heading className="mb-2 flex items-center gap-2 text-sm font-semibold">
        <Wallet className="size-4 text-muted-foreground" aria-hidden="true" />
        Budget impact
        {pending && query.data && <Spinner className="scale-75" label="Updating the budget impact" />}
      </Heading>
      <div aria-live="polite">{body}</div>
    </section>
  );
}
