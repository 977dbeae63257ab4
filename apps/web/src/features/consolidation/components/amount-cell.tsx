import type { ConsolidationCell } from '@outlay/contracts/consolidation';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip';
import { formatMoney, formatMonth } from '@/lib/format';
import { cn } from '@/lib/utils';

/** The short form for a phone: "€1,333.33 at 1.01500004"; nothing when no translation was needed. */
export function shortTranslation(cell: ConsolidationCell, groupCurrency: string): string | null {
  if (cell.monthlyRates.length === 0 || cell.currency === groupCurrency) return null;
  return `${formatMoney(cell.original, cell.currency)} at ${cell.effectiveRate ?? '—'}`;
}

/** How a figure was translated, in words: "CHF 1,333.33 at 1.01500004 (Jan 2019: 1.015)". */
export function translationText(cell: ConsolidationCell): string {
  if (cell.monthlyRates.length === 0) return `Nothing in ${cell.currency}`;
  const months = cell.monthlyRates.map((r) => `${formatMonth(r.month)}: ${r.rate}`).join(', ');
  return `${formatMoney(cell.original, cell.currency)} at ${cell.effectiveRate ?? '—'} (${months})`;
}

/**
 * A translated amount; focus or hover shows the original amount and the rates behind it (the
 * trigger is a button so the keyboard reaches it). An empty figure is plain text.
 */
export function AmountCell({
  cell,
  groupCurrency,
  label,
  strong,
  className,
}: {
  cell: ConsolidationCell;
  groupCurrency: string;
  label: string;
  strong?: boolean;
  className?: string;
}) {
  const shown = formatMoney(cell.translated, groupCurrency);
  if (cell.monthlyRates.length === 0)
    return <span className={cn('tabular-nums text-muted-foreground', className)}>{shown}</span>;
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <button
          type="button"
          aria-label={`${label}: ${shown}. ${translationText(cell)}`}
          className={cn(
            'rounded tabular-nums underline decoration-dotted decoration-muted-foreground/60 underline-offset-4 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
            strong && 'font-semibold',
            className,
          )}
        >
          {shown}
        </button>
      </TooltipTrigger>
      <TooltipContent side="top" className="text-left">
        <p className="font-medium">{label}</p>
        <p>Original: {formatMoney(cell.original, cell.currency)}</p>
        <p>Effective rate: {cell.effectiveRate ?? '—'}</p>
        <ul>
          {cell.monthlyRates.map((r) => (
            <li key={r.month}>
              {formatMonth(r.month)} average: 1 {cell.currency} = {r.rate} {groupCurrency}
            </li>
          ))}
        </ul>
      </TooltipContent>
    </Tooltip>
  );
}
