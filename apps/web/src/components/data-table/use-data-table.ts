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
import { useEffect, useMemo, useState } from 'react';
import { columnValue, displayValue, type DataTableColumn } from './columns';
import type { ListQueryResult } from './use-list-query';

const features = tableFeatures({
  columnVisibilityFeature,
  rowSortingFeature,
  rowSelectionFeature,
  rowPaginationFeature,
});
type Features = typeof features;

export const SELECT_ID = '__select';
export const ACTIONS_ID = '__actions';
const EMPTY: never[] = [];
const VISIBILITY_PREFIX = 'outlay.table.columns:';

function defaultRowId(row: unknown, index: number): string {
  const id = row && typeof row === 'object' ? (row as { id?: unknown }).id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : String(index);
}

function readVisibility<T>(
  storageKey: string | undefined,
  columns: readonly DataTableColumn<T>[],
): ColumnVisibilityState {
  const defaults: ColumnVisibilityState = Object.fromEntries(columns.filter((c) => c.hidden).map((c) => [c.id, false]));
  if (!storageKey) return defaults;
  try {
    const stored = JSON.parse(window.localStorage.getItem(VISIBILITY_PREFIX + storageKey) ?? 'null') as unknown;
    if (!stored || typeof stored !== 'object') return defaults;
    const known = new Set(columns.filter((c) => c.hideable !== false).map((c) => c.id));
    const saved = Object.fromEntries(
      Object.entries(stored).filter(([id, v]) => known.has(id) && typeof v === 'boolean'),
    );
    return { ...defaults, ...saved };
  } catch {
    return defaults;
  }
}

function apply<S>(updater: Updater<S>, prev: S): S {
  return typeof updater === 'function' ? (updater as (p: S) => S)(prev) : updater;
}

export interface UseDataTableOptions<T extends RowData> {
  columns: readonly DataTableColumn<T>[];
  query: ListQueryResult<T>;
  getRowId?: (row: T) => string;
  enableSelection: boolean;
  hasRowActions: boolean;
  /** Where the column choice is remembered (localStorage); undefined: not kept. */
  storageKey: string | undefined;
}

/**
 * The state behind a DataTable: the TanStack table over one server page, the column choice
 * (remembered per list), the selection (per view) and what the views derive from them.
 */
export function useDataTable<T extends RowData>({
  columns,
  query,
  getRowId,
  enableSelection,
  hasRowActions,
  storageKey,
}: UseDataTableOptions<T>) {
  const { state, setters, data } = query;
  const items = data?.items ?? (EMPTY as T[]);

  const [columnVisibility, setVisibilityState] = useState<ColumnVisibilityState>(() =>
    readVisibility(storageKey, columns),
  );
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
  const [selection, setSelection] = useState<{ view: string; rows: RowSelectionState }>({
    view: query.requestUrl,
    rows: {},
  });
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
    if (hasRowActions) defs.push({ id: ACTIONS_ID, header: 'Actions', enableSorting: false, enableHiding: false });
    return defs;
  }, [columns, enableSelection, hasRowActions]);

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
      setSelection((prev) => ({
        view: query.requestUrl,
        rows: apply(updater, prev.view === query.requestUrl ? prev.rows : {}),
      })),
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
  const outOfRange = Boolean(
    data && !query.isPlaceholderData && !query.isFetching && data.items.length === 0 && state.page > lastPage,
  );
  useEffect(() => {
    if (outOfRange) setters.setPage(lastPage);
  }, [outOfRange, lastPage, setters]);

  const rows = table.getRowModel().rows;
  const selectedRows = rows.filter((row) => rowSelection[row.id]).map((row) => row.original);
  const hideableColumns = columns
    .filter((c) => c.hideable !== false)
    .map((c) => ({ id: c.id, label: c.header, visible: columnVisibility[c.id] !== false }));

  return {
    table,
    rows,
    byId,
    rowSelection,
    selectedRows,
    allSelected: rows.length > 0 && selectedRows.length === rows.length,
    clearSelection: () => setSelection({ view: query.requestUrl, rows: {} }),
    visibleColumns: table.getVisibleLeafColumns(),
    hideableColumns,
    setColumnVisibility,
    showSkeleton: query.isLoading && !data,
    showError: query.isError && !query.isFetching,
  };
}

export type DataTableState<T extends RowData> = ReturnType<typeof useDataTable<T>>;
export type DataTableRow<T extends RowData> = DataTableState<T>['rows'][number];
