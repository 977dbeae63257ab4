import type { RowData } from '@tanstack/react-table';
import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';
import type { KeyboardEvent, ReactNode } from 'react';
import { Checkbox } from '@/components/form/checkbox';
import { cn } from '@/lib/utils';
import { sortKeyOf } from './columns';
import { TableSkeletonRows } from './data-table-states';
import { ACTIONS_ID, SELECT_ID, type DataTableRow, type DataTableState } from './use-data-table';
import type { ListQueryResult } from './use-list-query';

const INTERACTIVE = 'a,button,input,select,textarea,label,[role="menuitem"],[role="checkbox"]';

/*
 * A table wider than its card scrolls inside the card with its first column (and the selection
 * checkbox) pinned, so a row stays recognisable while its far columns are read. Pinned cells need
 * an opaque background: the same tints as the row's, mixed onto the card.
 */
const PINNED_BODY =
  'sticky z-[1] bg-card group-hover:bg-[color-mix(in_srgb,var(--color-muted)_50%,var(--color-card))] group-data-[state=selected]:bg-secondary';
const PINNED_HEAD = 'sticky z-[1] bg-[color-mix(in_srgb,var(--color-muted)_40%,var(--color-card))]';
const PINNED_EDGE = 'shadow-[inset_-1px_0_0_var(--color-border)]';

export interface DataTableViewProps<T extends RowData> {
  dt: DataTableState<T>;
  query: ListQueryResult<T>;
  label: string;
  /** The error or empty state, shown in place of the rows. */
  status: ReactNode;
  rowActions?: (row: T) => ReactNode;
  onRowClick?: (row: T) => void;
  rowLabelOf: (row: DataTableRow<T>) => string;
}

/** The table: sortable headers, a checkbox column for selection, and one row per item. */
export function DataTableView<T extends RowData>({
  dt,
  query,
  label,
  status,
  rowActions,
  onRowClick,
  rowLabelOf,
}: DataTableViewProps<T>) {
  const { table, rows, rowSelection, selectedRows, allSelected, byId, visibleColumns } = dt;
  const { state, setters } = query;
  const colCount = Math.max(1, visibleColumns.length);
  const hasSelect = visibleColumns.some((column) => column.id === SELECT_ID);
  const pinnedId = visibleColumns.find((column) => column.id !== SELECT_ID && column.id !== ACTIONS_ID)?.id;
  const pinned = (id: string, base: string) =>
    id === SELECT_ID
      ? cn(base, 'left-0')
      : id === pinnedId
        ? cn(base, PINNED_EDGE, hasSelect ? 'left-10' : 'left-0')
        : undefined;

  let body: ReactNode;
  if (dt.showSkeleton) {
    body = (
      <TableSkeletonRows rows={Math.min(state.pageSize, 8)} columnIds={visibleColumns.map((column) => column.id)} />
    );
  } else if (dt.showError || rows.length === 0) {
    body = (
      <tr>
        <td colSpan={colCount} className="px-4 py-12">
          {status}
        </td>
      </tr>
    );
  } else {
    body = rows.map((row) => {
      const selected = Boolean(rowSelection[row.id]);
      return (
        <tr
          key={row.id}
          data-state={selected ? 'selected' : undefined}
          className={cn(
            'group border-b transition-colors last:border-b-0 hover:bg-muted/50 data-[state=selected]:bg-secondary data-[state=selected]:hover:bg-secondary',
            onRowClick &&
              'cursor-pointer focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ring',
          )}
          tabIndex={onRowClick ? 0 : undefined}
          onClick={
            onRowClick
              ? (event) => {
                  // Clicks on the row's own controls (links, buttons, checkboxes) are theirs.
                  if ((event.target as HTMLElement).closest(INTERACTIVE)) return;
                  onRowClick(row.original);
                }
              : undefined
          }
          onKeyDown={
            onRowClick
              ? (event: KeyboardEvent<HTMLTableRowElement>) => {
                  if (event.key !== 'Enter' || event.target !== event.currentTarget) return;
                  // Otherwise the same Enter's keypress lands on the opened sheet's first button (Close) and shuts it.
                  event.preventDefault();
                  onRowClick(row.original);
                }
              : undefined
          }
        >
          {row.getVisibleCells().map((cell) => {
            const id = cell.column.id;
            if (id === SELECT_ID) {
              return (
                <td key={cell.id} className={cn('w-10 min-w-10 max-w-10 px-3 py-2', pinned(id, PINNED_BODY))}>
                  <Checkbox
                    checked={selected}
                    onCheckedChange={(checked) => row.toggleSelected(checked)}
                    aria-label={rowLabelOf(row)}
                  />
                </td>
              );
            }
            if (id === ACTIONS_ID) {
              return (
                <td key={cell.id} className="w-px whitespace-nowrap px-3 py-2 text-right">
                  {rowActions?.(row.original)}
                </td>
              );
            }
            const column = byId.get(id);
            return (
              <td
                key={cell.id}
                className={cn(
                  'whitespace-nowrap px-3 py-2.5',
                  column?.align === 'right' && 'text-right tabular-nums',
                  column?.align === 'center' && 'text-center',
                  column?.className,
                  pinned(id, PINNED_BODY),
                )}
              >
                <table.FlexRender cell={cell} />
              </td>
            );
          })}
        </tr>
      );
    });
  }

  return (
    // relative: screen-reader-only text inside the cells must not widen the page on phones.
    <div className="relative overflow-x-auto">
      <table
        className={cn(
          'w-full caption-bottom border-collapse text-sm',
          query.isPlaceholderData && query.isFetching && 'opacity-60',
        )}
        aria-busy={query.isFetching || undefined}
      >
        <caption className="sr-only">{label}</caption>
        <thead className="border-b bg-muted/40">
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => {
                const id = header.column.id;
                if (id === SELECT_ID) {
                  return (
                    <th
                      key={header.id}
                      scope="col"
                      className={cn('w-10 min-w-10 max-w-10 px-3 py-2 text-left', pinned(id, PINNED_HEAD))}
                    >
                      <Checkbox
                        checked={allSelected}
                        indeterminate={selectedRows.length > 0 && !allSelected}
                        disabled={rows.length === 0}
                        onCheckedChange={(checked) => table.toggleAllPageRowsSelected(checked)}
                        aria-label="Select all rows on this page"
                      />
                    </th>
                  );
                }
                if (id === ACTIONS_ID) {
                  return (
                    <th key={header.id} scope="col" className="w-px px-3 py-2 text-right">
                      <span className="sr-only">Actions</span>
                    </th>
                  );
                }
                const column = byId.get(id);
                if (!column) return <th key={header.id} scope="col" />;
                const key = sortKeyOf(column);
                const sorted = state.sort === key ? state.order : undefined;
                const ariaSort =
                  sorted === 'asc'
                    ? 'ascending'
                    : sorted === 'desc'
                      ? 'descending'
                      : column.sortable
                        ? 'none'
                        : undefined;
                const Icon = sorted === 'asc' ? ArrowUp : sorted === 'desc' ? ArrowDown : ArrowUpDown;
                return (
                  <th
                    key={header.id}
                    scope="col"
                    aria-sort={ariaSort}
                    className={cn(
                      'whitespace-nowrap px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-muted-foreground',
                      column.align === 'right' && 'text-right',
                      column.align === 'center' && 'text-center',
                      column.headerClassName,
                      pinned(id, PINNED_HEAD),
                    )}
                  >
                    {column.sortable ? (
                      <button
                        type="button"
                        onClick={() => setters.toggleSort(key)}
                        className={cn(
                          '-mx-1.5 inline-flex cursor-pointer items-center gap-1 rounded px-1.5 py-1 uppercase hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring',
                          sorted && 'text-foreground',
                        )}
                      >
                        {column.header}
                        <Icon className={cn('size-3.5', !sorted && 'opacity-50')} aria-hidden="true" />
                      </button>
                    ) : (
                      column.header
                    )}
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody>{body}</tbody>
      </table>
    </div>
  );
}
