import type { RowData } from '@tanstack/react-table';
import type { ReactNode } from 'react';
import { Checkbox } from '@/components/form/checkbox';
import { Card } from '@/components/ui/card';
import { cn } from '@/lib/utils';
import { CARD_ITEM_CLASS } from './card-list';
import { CardSkeletons } from './data-table-states';
import type { DataTableRow, DataTableState } from './use-data-table';
import type { ListQueryResult } from './use-list-query';

export interface DataTableCardsProps<T extends RowData> {
  dt: DataTableState<T>;
  query: ListQueryResult<T>;
  label: string;
  /** The error or empty state, shown in place of the cards. */
  status: ReactNode;
  renderCard: (row: T) => ReactNode;
  enableSelection: boolean;
  rowLabelOf: (row: DataTableRow<T>) => string;
  pagination: ReactNode;
}

/** Phones: each row as a card (a table would scroll sideways), with the same selection and paging. */
export function DataTableCards<T extends RowData>({
  dt,
  query,
  label,
  status,
  renderCard,
  enableSelection,
  rowLabelOf,
  pagination,
}: DataTableCardsProps<T>) {
  const { table, rows, rowSelection, selectedRows, allSelected } = dt;
  let content: ReactNode;
  if (dt.showSkeleton) {
    content = <CardSkeletons />;
  } else if (dt.showError || rows.length === 0) {
    content = <Card className="px-4 py-10">{status}</Card>;
  } else {
    content = (
      <ul
        aria-label={label}
        aria-busy={query.isFetching || undefined}
        className={cn('flex flex-col gap-2', query.isPlaceholderData && query.isFetching && 'opacity-60')}
      >
        {rows.map((row) => {
          const selected = Boolean(rowSelection[row.id]);
          return (
            <li
              key={row.id}
              data-state={selected ? 'selected' : undefined}
              className={cn(
                CARD_ITEM_CLASS,
                'data-[state=selected]:border-blue-300 data-[state=selected]:bg-secondary',
              )}
            >
              {enableSelection && (
                // Above the card's stretched button, with a finger-sized target.
                <label className="relative z-10 -m-1 flex size-10 shrink-0 cursor-pointer items-start justify-center pt-2.5">
                  <Checkbox
                    checked={selected}
                    onCheckedChange={(checked) => row.toggleSelected(checked)}
                    aria-label={rowLabelOf(row)}
                  />
                </label>
              )}
              <div className="min-w-0 flex-1">{renderCard(row.original)}</div>
            </li>
          );
        })}
      </ul>
    );
  }
  return (
    <div className="flex min-w-0 flex-col gap-2 md:hidden">
      {enableSelection && rows.length > 0 && !dt.showError && (
        <label className="flex w-fit cursor-pointer items-center gap-3 px-3 py-1 text-sm text-muted-foreground">
          <Checkbox
            checked={allSelected}
            indeterminate={selectedRows.length > 0 && !allSelected}
            onCheckedChange={(checked) => table.toggleAllPageRowsSelected(checked)}
          />
          Select all on this page
        </label>
      )}
      {content}
      {pagination && <Card className="overflow-hidden">{pagination}</Card>}
    </div>
  );
}
