import type { RowData } from '@tanstack/react-table';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { cn } from '@/lib/utils';
import type { DataTableColumn } from './columns';
import { DataTableCards } from './data-table-cards';
import { DataTableEmpty, DataTableError } from './data-table-states';
import { DataTableView } from './data-table-view';
import { DataTableColumnsMenu, DataTableExportButtons, DataTableSearch } from './toolbar';
import { DataTablePagination } from './pagination';
import { useDataTable, type DataTableRow } from './use-data-table';
import type { ListQueryResult } from './use-list-query';

export interface DataTableProps<T extends RowData> {
  columns: readonly DataTableColumn<T>[];
  query: ListQueryResult<T>;
  /** Accessible name of the table, e.g. "Vendors" (default: from the URL, '/api/vendors' → "Vendors"). */
  label?: string;
  /** Plural noun for messages: "No vendors match your filters". Defaults to the label in lower case. */
  entityName?: string;
  /** Stable row id (default `row.id`). */
  getRowId?: (row: T) => string;
  /** Show the search box (default true). */
  search?: boolean;
  searchPlaceholder?: string;
  /** Filter controls placed in the toolbar, e.g. <DataTableFilterSelect …/>. */
  toolbar?: ReactNode;
  /** Buttons placed at the right end of the toolbar, e.g. "New vendor". */
  actions?: ReactNode;
  /** Shown when the list is empty and no search or filter is applied. */
  empty?: ReactNode;
  /** Export buttons hitting `<url>/export` (default both); false hides them. */
  exportFormats?: readonly ('csv' | 'xlsx')[] | false;
  /** File name without extension, used when the server sends none (default: entityName). */
  exportFilename?: string;
  /** Checkbox column for bulk actions. */
  enableSelection?: boolean;
  /** Names a row for its checkbox ("Select Acme Ltd"); default "Select row N". */
  getRowLabel?: (row: T) => string;
  /** Rendered above the table while rows are selected; `clear` empties the selection. */
  bulkActions?: (selected: T[], clear: () => void) => ReactNode;
  /** The last column's content for each row, e.g. <DataTableRowActions …/>. */
  rowActions?: (row: T) => ReactNode;
  /** Makes rows clickable (also with Enter on a focused row). Prefer a link in a cell when possible. */
  onRowClick?: (row: T) => void;
  /**
   * Phones (below `md`): each row as a card instead of the table, which would scroll sideways.
   * Same query, toolbar, selection (a checkbox on each card), bulk actions and pagination;
   * the card owns its actions (make its main element a button or link). From `md` up: the table.
   */
  renderCard?: (row: T) => ReactNode;
  /** Show the "Columns" menu (default true). */
  columnMenu?: boolean;
  /** Where the column choice is remembered (localStorage; default the list URL); false: not kept. */
  columnStorageKey?: string | false;
  className?: string;
}

function labelFromUrl(url: string): string {
  const last = url.split('?')[0]!.split('/').filter(Boolean).at(-1) ?? 'results';
  const words = last
    .replace(/[-_]+/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * The server-side table of every list screen: search, filters, sortable headers, column
 * choice, selection, export, pagination and the loading / empty / error states. The data and
 * the view come from `useListQuery` (see index.ts).
 */
export function DataTable<T extends RowData>(props: DataTableProps<T>) {
  const {
    columns,
    query,
    label = labelFromUrl(query.url),
    entityName = label.toLowerCase(),
    getRowId,
    search = true,
    searchPlaceholder,
    toolbar,
    actions,
    empty,
    exportFormats = ['csv', 'xlsx'],
    exportFilename,
    enableSelection = false,
    getRowLabel,
    bulkActions,
    rowActions,
    onRowClick,
    renderCard,
    columnMenu = true,
    columnStorageKey,
    className,
  } = props;
  const { state, setters, data } = query;
  const storageKey = columnStorageKey === false ? undefined : (columnStorageKey ?? query.url);
  const dt = useDataTable({
    columns,
    query,
    getRowId,
    enableSelection,
    hasRowActions: Boolean(rowActions),
    storageKey,
  });
  const { selectedRows, clearSelection, hideableColumns, setColumnVisibility } = dt;

  const status = dt.showError ? (
    <DataTableError entityName={entityName} error={query.error} onRetry={() => void query.refetch()} />
  ) : (
    <DataTableEmpty
      entityName={entityName}
      filtered={query.hasActiveFilters}
      onClearFilters={setters.clearFilters}
      empty={empty}
    />
  );
  const rowLabelOf = (row: DataTableRow<T>) =>
    getRowLabel ? `Select ${getRowLabel(row.original)}` : `Select row ${row.index + 1}`;

  const showToolbar = search || toolbar || actions || columnMenu || exportFormats !== false;
  const pagination =
    data && data.total > 0 && !dt.showError ? (
      <DataTablePagination
        page={state.page}
        pageSize={state.pageSize}
        total={data.total}
        totalIsEstimate={data.totalIsEstimate}
        hasNextPage={Boolean(data.nextCursor)}
        rowsShown={data.items.length}
        onPageChange={setters.setPage}
        onPageSizeChange={setters.setPageSize}
      />
    ) : null;

  return (
    <div className={cn('flex min-w-0 flex-col gap-3', className)}>
      {showToolbar && (
        <div className="flex flex-wrap items-center gap-2" role="toolbar" aria-label={`${label} filters and actions`}>
          {search && (
            <DataTableSearch
              value={state.q}
              onChange={setters.setQ}
              label={`Search ${entityName}`}
              placeholder={searchPlaceholder ?? `Search ${entityName}…`}
            />
          )}
          {toolbar}
          <div className="ml-auto flex flex-wrap items-center gap-2">
            {columnMenu && hideableColumns.length > 1 && (
              // Cards on phones have no columns to choose.
              <div className={cn(renderCard && 'hidden md:block')}>
                <DataTableColumnsMenu
                  columns={hideableColumns}
                  onToggle={(id, visible) => setColumnVisibility((prev) => ({ ...prev, [id]: visible }))}
                />
              </div>
            )}
            {exportFormats !== false && exportFormats.length > 0 && (
              <DataTableExportButtons
                formats={exportFormats}
                exportUrl={query.exportUrl}
                filename={exportFilename ?? entityName}
              />
            )}
            {actions}
          </div>
        </div>
      )}

      {enableSelection && selectedRows.length > 0 && (
        <div
          className="flex flex-wrap items-center gap-2 rounded-lg border border-blue-200 bg-secondary px-3 py-2 text-sm text-secondary-foreground"
          role="region"
          aria-label="Bulk actions"
        >
          <span className="font-medium" aria-live="polite">
            {selectedRows.length} selected
          </span>
          {bulkActions?.(selectedRows, clearSelection)}
          <Button variant="ghost" size="sm" className="ml-auto" onClick={clearSelection}>
            Clear selection
          </Button>
        </div>
      )}

      {renderCard && (
        <DataTableCards
          dt={dt}
          query={query}
          label={label}
          status={status}
          renderCard={renderCard}
          enableSelection={enableSelection}
          rowLabelOf={rowLabelOf}
          pagination={pagination}
        />
      )}
      <Card className={cn('relative min-w-0 overflow-hidden', renderCard && 'hidden md:block')}>
        <DataTableView
          dt={dt}
          query={query}
          label={label}
          status={status}
          rowActions={rowActions}
          onRowClick={onRowClick}
          rowLabelOf={rowLabelOf}
        />
        {pagination}
      </Card>
    </div>
  );
}
