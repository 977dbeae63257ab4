import {
  columnVisibilityFeature,
  rowPaginationFeature,
  rowSelectionFeature,
  rowSortingFeature,
  tableFeatures,
  useTable,
  type ColumnDef,
  type ColumnVisibilityState,
  type RowData,
  type RowSelectionState,
  type Updater,
} from '@tanstack/react-table';
import { ArrowDown, ArrowUp, ArrowUpDown, SearchX, TriangleAlert } from 'lucide-react';
import { useEffect, useMemo, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Checkbox } from '@/components/form/checkbox';
import { messageOf } from '@/lib/api-error';
import { cn } from '@/lib/utils';
import { columnValue, displayValue, sortKeyOf, type DataTableColumn } from './columns';
import { DataTableColumnsMenu, DataTableExportButtons, DataTableSearch } from './toolbar';
import { DataTablePagination } from './pagination';
import type { ListQueryResult } from './use-list-query';

const features = tableFeatures({ columnVisibilityFeature, rowSortingFeature, rowSelectionFeature, rowPaginationFeature });
type Features = typeof features;

const SELECT_ID = '__select';
const ACTIONS_ID = '__actions';
const EMPTY: never[] = [];
const INTERACTIVE = 'a,button,input,select,textarea,label,[role="menuitem"],[role="checkbox"]';

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

function defaultRowId(row: unknown, index: number): string {
  const id = row && typeof row === 'object' ? (row as { id?: unknown }).id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : String(index);
}

function labelFromUrl(url: string): string {
  const last = url.split('?')[0]!.split('/').filter(Boolean).at(-1) ?? 'results';
  const words = last.replace(/[-_]+/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const VISIBILITY_PREFIX = 'outlay.table.columns:';

function readVisibility<T>(storageKey: string | undefined, columns: readonly DataTableColumn<T>[]): ColumnVisibilityState {
  const defaults: ColumnVisibilityState = Object.fromEntries(columns.filter((c) => c.hidden).map((c) => [c.id, false]));
  if (!storageKey) return defaults;
  try {
    const stored = JSON.parse(window.localStorage.getItem(VISIBILITY_PREFIX + storageKey) ?? 'null') as unknown;
    if (!stored || typeof stored !== 'object') return defaults;
    const known = new Set(columns.filter((c) => c.hideable !== false).map((c) => c.id));
    const saved = Object.fromEntries(Object.entries(stored).filter(([id, v]) => known.has(id) && typeof v === 'boolean'));
    return { ...defaults, ...saved };
  } catch {
    return defaults;
  }
}

function apply<S>(updater: Updater<S>, prev: S): S {
  return typeof updater === 'function' ? (updater as (p: S) => S)(prev) : updater;
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
  const items = data?.items ?? (EMPTY as T[]);

  const storageKey = columnStorageKey === false ? undefined : (columnStorageKey ?? query.url);
  const [columnVisibility, setVisibilityState] = useState<ColumnVisibilityState>(() => readVisibility(storageKey, columns));
  const setColumnVisibility = (change: (prev: ColumnVisibilityState) => ColumnVisibilityState) =>
    setVisibilityState((prev) => {
      const next = change(prev);
      if (storageKey) {
        try {
          window.localStorage.setItem(VISIBILITY_PREFIX + storageKey, JSON.stringify(next));
        } catch {
          // Storage full or blocked: the choice lasts for this visit only.
        }
      }
      return next;
    });
  // The selection belongs to one view: a new page, sort, search or filter starts empty.
  const [selection, setSelection] = useState<{ view: string; rows: RowSelectionState }>({ view: query.requestUrl, rows: {} });
  const rowSelection = selection.view === query.requestUrl ? selection.rows : {};

  const byId = useMemo(() => new Map(columns.map((c) => [c.id, c])), [columns]);
  const columnDefs = useMemo<ColumnDef<Features, T>[]>(() => {
    const defs: ColumnDef<Features, T>[] = columns.map((column) => ({
      id: column.id,
      accessorFn: (row: T) => columnValue(column, row),
      header: column.header,
      cell: ({ row }) => (column.cell ? column.cell(row.original) : displayValue(columnValue(column, row.original))),
      enableSorting: Boolean(column.sortable),
      enableHiding: column.hideable !== false,
    }));
    if (enableSelection) defs.unshift({ id: SELECT_ID, header: 'Select', enableSorting: false, enableHiding: false });
    if (rowActions) defs.push({ id: ACTIONS_ID, header: 'Actions', enableSorting: false, enableHiding: false });
    return defs;
  }, [columns, enableSelection, rowActions]);

  const table = useTable({
    features,
    columns: columnDefs,
    data: items,
    getRowId: getRowId ? (row: T) => getRowId(row) : defaultRowId,
    manualSorting: true,
    manualPagination: true,
    rowCount: data?.total ?? 0,
    enableRowSelection: enableSelection,
    state: {
      sorting: state.sort ? [{ id: state.sort, desc: state.order === 'desc' }] : [],
      pagination: { pageIndex: state.page - 1, pageSize: state.pageSize },
      columnVisibility,
      rowSelection,
    },
    onColumnVisibilityChange: (updater) => setColumnVisibility((prev) => apply(updater, prev)),
    onRowSelectionChange: (updater) =>
      setSelection((prev) => ({ view: query.requestUrl, rows: apply(updater, prev.view === query.requestUrl ? prev.rows : {}) })),
    onSortingChange: () => {
      // Sorting is the server's: header buttons call the list setters directly.
    },
    onPaginationChange: (updater) => {
      const next = apply(updater, { pageIndex: state.page - 1, pageSize: state.pageSize });
      if (next.pageSize !== state.pageSize) setters.setPageSize(next.pageSize);
      else setters.setPage(next.pageIndex + 1);
    },
  });

  // A page that no longer exists (rows were deleted, or an old link): go to the last one.
  const lastPage = data ? Math.max(1, Math.ceil(data.total / state.pageSize)) : 1;
  const outOfRange = Boolean(data && !query.isPlaceholderData && !query.isFetching && data.items.length === 0 && state.page > lastPage);
  useEffect(() => {
    if (outOfRange) setters.setPage(lastPage);
  }, [outOfRange, lastPage, setters]);

  const rows = table.getRowModel().rows;
  const selectedRows = rows.filter((row) => rowSelection[row.id]).map((row) => row.original);
  const clearSelection = () => setSelection({ view: query.requestUrl, rows: {} });
  const visibleColumns = table.getVisibleLeafColumns();
  const colCount = Math.max(1, visibleColumns.length);
  const showSkeleton = query.isLoading && !data;
  const showError = query.isError && !query.isFetching;
  const allSelected = rows.length > 0 && selectedRows.length === rows.length;

  const hideableColumns = columns
    .filter((c) => c.hideable !== false)
    .map((c) => ({ id: c.id, label: c.header, visible: columnVisibility[c.id] !== false }));

  const errorContent = (
    <div role="alert" className="mx-auto flex max-w-md flex-col items-center gap-3 text-center">
      <TriangleAlert className="size-8 text-destructive" aria-hidden="true" />
      <p className="font-medium">Could not load {entityName}</p>
      <p className="text-sm text-muted-foreground">{messageOf(query.error, 'The server did not answer.')}</p>
      <Button variant="outline" size="sm" onClick={() => void query.refetch()}>
        Retry
      </Button>
    </div>
  );
  const emptyContent = query.hasActiveFilters ? (
    <div className="mx-auto flex max-w-md flex-col items-center gap-3 text-center">
      <SearchX className="size-8 text-muted-foreground" aria-hidden="true" />
      <p className="font-medium">No {entityName} match your filters</p>
      <Button variant="outline" size="sm" onClick={setters.clearFilters}>
        Clear filters
      </Button>
    </div>
  ) : (
    (empty ?? <p className="text-center text-sm text-muted-foreground">No {entityName} yet.</p>)
  );
  const rowLabelOf = (row: { original: T; index: number }) =>
    getRowLabel ? `Select ${getRowLabel(row.original)}` : `Select row ${row.index + 1}`;

  let body: ReactNode;
  if (showSkeleton) {
    body = Array.from({ length: Math.min(state.pageSize, 8) }, (_, i) => (
      <tr key={`skeleton-${i}`} className="border-b last:border-b-0" aria-hidden="true">
        {visibleColumns.map((column) => (
          <td key={column.id} className="px-3 py-3">
            <div className="h-4 w-full min-w-12 max-w-40 animate-pulse rounded bg-slate-200" />
          </td>
        ))}
      </tr>
    ));
  } else if (showError) {
    body = (
      <tr>
        <td colSpan={colCount} className="px-4 py-12">
          {errorContent}
        </td>
      </tr>
    );
  } else if (rows.length === 0) {
    body = (
      <tr>
        <td colSpan={colCount} className="px-4 py-12">
          {emptyContent}
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
            'border-b transition-colors last:border-b-0 hover:bg-muted/50 data-[state=selected]:bg-secondary data-[state=selected]:hover:bg-secondary',
            onRowClick && 'cursor-pointer focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ring',
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
                  if (event.key === 'Enter' && event.target === event.currentTarget) onRowClick(row.original);
                }
              : undefined
          }
        >
          {row.getVisibleCells().map((cell) => {
            const id = cell.column.id;
            if (id === SELECT_ID) {
              return (
                <td key={cell.id} className="w-10 px-3 py-2">
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

  const showToolbar = search || toolbar || actions || columnMenu || exportFormats !== false;
  const pagination =
    data && data.total > 0 && !showError ? (
      <DataTablePagination
        page={state.page}
        pageSize={state.pageSize}
        total={data.total}
        onPageChange={setters.setPage}
        onPageSizeChange={setters.setPageSize}
      />
    ) : null;

  let cards: ReactNode = null;
  if (renderCard) {
    let content: ReactNode;
    if (showSkeleton) {
      content = Array.from({ length: 3 }, (_, i) => (
        <div key={`skeleton-${i}`} className="flex flex-col gap-2 rounded-xl border bg-card p-4" aria-hidden="true">
          <div className="h-3 w-24 animate-pulse rounded bg-slate-200" />
          <div className="h-4 w-3/4 animate-pulse rounded bg-slate-200" />
          <div className="h-3 w-1/2 animate-pulse rounded bg-slate-200" />
        </div>
      ));
    } else if (showError || rows.length === 0) {
      content = <Card className="px-4 py-10">{showError ? errorContent : emptyContent}</Card>;
    } else {
      content = (
        <ul aria-label={label} aria-busy={query.isFetching || undefined} className={cn('flex flex-col gap-2', query.isPlaceholderData && query.isFetching && 'opacity-60')}>
          {rows.map((row) => {
            const selected = Boolean(rowSelection[row.id]);
            return (
              <li
                key={row.id}
                data-state={selected ? 'selected' : undefined}
                className="relative flex gap-3 rounded-xl border bg-card p-3 text-sm text-card-foreground shadow-sm transition-colors has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring data-[state=selected]:border-blue-300 data-[state=selected]:bg-secondary"
              >
                {enableSelection && (
                  // Above the card's stretched button, with a finger-sized target.
                  <label className="relative z-10 -m-1 flex size-10 shrink-0 cursor-pointer items-start justify-center pt-2.5">
                    <Checkbox checked={selected} onCheckedChange={(checked) => row.toggleSelected(checked)} aria-label={rowLabelOf(row)} />
                  </label>
                )}
                <div className="min-w-0 flex-1">{renderCard(row.original)}</div>
              </li>
            );
          })}
        </ul>
      );
    }
    cards = (
      <div className="flex min-w-0 flex-col gap-2 md:hidden">
        {enableSelection && rows.length > 0 && !showError && (
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
              <DataTableExportButtons formats={exportFormats} exportUrl={query.exportUrl} filename={exportFilename ?? entityName} />
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

      {cards}
      <Card className={cn('relative min-w-0 overflow-hidden', renderCard && 'hidden md:block')}>
        {/* relative: screen-reader-only text inside the cells must not widen the page on phones. */}
        <div className="relative overflow-x-auto">
          <table
            className={cn('w-full caption-bottom border-collapse text-sm', query.isPlaceholderData && query.isFetching && 'opacity-60')}
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
                        <th key={header.id} scope="col" className="w-10 px-3 py-2 text-left">
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
                    const ariaSort = sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : column.sortable ? 'none' : undefined;
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
        {pagination}
      </Card>
    </div>
  );
}
