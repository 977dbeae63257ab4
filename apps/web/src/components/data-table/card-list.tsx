import type { ReactNode } from 'react';
import { cn } from '@/lib/utils';

/** One row as a card on a phone: the look of every list's phone layout (`DataTable renderCard` and `CardList`). */
export const CARD_ITEM_CLASS =
  'relative flex gap-3 rounded-xl border bg-card p-3 text-sm text-card-foreground shadow-sm transition-colors has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring';

export interface CardListProps<T> {
  items: readonly T[];
  /** The list's accessible name, as the table's caption would be. */
  label: string;
  getKey: (item: T) => string;
  /** The card's content, usually a <ListCard/>. */
  renderCard: (item: T) => ReactNode;
  /** Where the cards show: below 640 px by default, where the table beside them is hidden. */
  className?: string;
  testId?: string;
}

/**
 * The phone layout of a table whose rows are already on the page (a report's months, a card's
 * rules): the same stacked cards as a server list's `DataTable renderCard`, in the width of the
 * screen instead of a table that would scroll sideways. Pair it with the table shown from `sm` up.
 */
export function CardList<T>({ items, label, getKey, renderCard, className = 'sm:hidden', testId }: CardListProps<T>) {
  return (
    <ul aria-label={label} className={cn('flex min-w-0 flex-col gap-2', className)} data-testid={testId}>
      {items.map((item) => (
        <li key={getKey(item)} className={CARD_ITEM_CLASS}>
          <div className="min-w-0 flex-1">{renderCard(item)}</div>
        </li>
      ))}
    </ul>
  );
}
