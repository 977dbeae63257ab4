import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { useSearchParams } from 'wouter';
import type { Paginated } from '@outlay/contracts/lists';
import { apiJson } from '@/lib/api-client';
import {
  buildExportUrl,
  buildListUrl,
  defaultListState,
  LIST_DEFAULT_PAGE_SIZE,
  readListState,
  writeListState,
  type ExtraParams,
  type FilterValues,
  type ListDefaults,
  type ListState,
  type SortOrder,
} from './list-params';

export interface UseListQueryOptions {
  /** The list endpoint, e.g. '/api/vendors'. The query key starts with it. */
  url: string;
  /** Names of the endpoint's filter parameters, kept in the address bar, e.g. ['status', 'organizationId']. */
  filters?: readonly string[];
  /** Initial sort column (server sort key) and order when the address bar names none. */
  defaultSort?: string;
  defaultOrder?: SortOrder;
  /** Initial page size when the address bar names none (one of PAGE_SIZES; default 25). */
  pageSize?: number;
  /** Fixed parameters sent with every list and export request but not kept in the address bar. */
  params?: ExtraParams;
  /** Namespace for the address-bar parameters when two tables share one page, e.g. 'people.'. */
  urlPrefix?: string;
  /** Keep the view in the address bar (default true). False keeps it in memory only. */
  syncUrl?: boolean;
  enabled?: boolean;
}

export interface ListSetters {
  setPage: (page: number) => void;
  /** Changes the page size and goes back to page 1. */
  setPageSize: (pageSize: number) => void;
  /** Sets the sort; `undefined` goes back to the endpoint's default order. Stays on page 1. */
  setSort: (sort: string | undefined, order?: SortOrder) => void;
  /** Header click: ascending, then descending, then back to the default sort. */
  toggleSort: (sort: string) => void;
  /** Search text; goes back to page 1. */
  setQ: (q: string) => void;
  /** One filter; `undefined` or '' removes it. Goes back to page 1. */
  setFilter: (name: string, value: string | undefined) => void;
  /** Clears the search and every filter (keeps sort and page size). */
  clearFilters: () => void;
  /** Back to the defaults. */
  reset: () => void;
}

export interface ListQueryResult<T> {
  /** The current page, kept while the next one loads (keepPreviousData). */
  data: Paginated<T> | undefined;
  /** True only before the first page has arrived. */
  isLoading: boolean;
  /** True while any request for this list is in flight (also when showing a previous page). */
  isFetching: boolean;
  /** True when the data shown is the previous view's while the new one loads. */
  isPlaceholderData: boolean;
  isError: boolean;
  error: Error | null;
  refetch: () => Promise<unknown>;
  state: ListState;
  setters: ListSetters;
  /** True when a search or any filter is applied (drives the "Clear filters" empty state). */
  hasActiveFilters: boolean;
  /** The endpoint this list reads (as given in the options). */
  url: string;
  /** The exact request URL of the current view. */
  requestUrl: string;
  /** The export URL of the current view: `url/export?format=…&<sort, q, filters>`. */
  exportUrl: (format: 'csv' | 'xlsx') => string;
  /** The query key of the current view (starts with `url`), e.g. for setQueryData. */
  queryKey: readonly unknown[];
}

const NO_FILTERS: readonly string[] = [];

/** Reads and writes the list view: in the address bar (default) or, with syncUrl false, in memory. */
function useListViewState(defaults: ListDefaults, prefix: string, syncUrl: boolean) {
  const [searchParams, setSearchParams] = useSearchParams();
  const fromUrl = useMemo(() => readListState(searchParams, defaults, prefix), [searchParams, defaults, prefix]);
  const [memory, setMemory] = useState<ListState>(() => defaultListState(defaults));
  const state = syncUrl ? fromUrl : memory;
  const update = useCallback(
    (change: (prev: ListState) => ListState) => {
      if (!syncUrl) {
        setMemory(change);
        return;
      }
      setSearchParams((prev) => writeListState(prev, change(readListState(prev, defaults, prefix)), defaults, prefix), {
        replace: true,
      });
    },
    [syncUrl, setMemory, setSearchParams, defaults, prefix],
  );
  return [state, update] as const;
}

/**
 * The state and data of one server-side list (see index.ts for the usage). The view lives in
 * the address bar so a reload or a shared link opens the same page, sort, search and filters.
 */
export function useListQuery<T>(options: UseListQueryOptions): ListQueryResult<T> {
  const {
    url,
    filters = NO_FILTERS,
    defaultSort,
    defaultOrder = 'asc',
    pageSize = LIST_DEFAULT_PAGE_SIZE,
    params,
    urlPrefix = '',
    syncUrl = true,
    enabled = true,
  } = options;
  const filterKey = filters.join('\u0000');
  const defaults = useMemo<ListDefaults>(
    () => ({ pageSize, sort: defaultSort, order: defaultOrder, filters: filterKey ? filterKey.split('\u0000') : [] }),
    [pageSize, defaultSort, defaultOrder, filterKey],
  );
  const [state, update] = useListViewState(defaults, urlPrefix, syncUrl);

  // Large lists answer `nextCursor`: the page after one that came with it is read on from that
  // row (keyset) rather than by skipping every row before it. Cursors belong to one view (page
  // size, sort, search, filters); any change of view starts without them, and a page reached
  // another way (a jump, a link) is read by its number.
  const view = JSON.stringify([
    url,
    state.pageSize,
    state.sort,
    state.order,
    state.q.trim(),
    state.filters,
    params ?? {},
  ]);
  const [cursors, setCursors] = useState<{ view: string; byPage: Record<number, string> }>({ view, byPage: {} });
  const cursor = cursors.view === view ? cursors.byPage[state.page] : undefined;
  const requestUrl = buildListUrl(url, state, params, cursor);
  // Starts with the endpoint, so invalidating [url] refreshes every view of this list.
  const queryKey = [
    url,
    {
      page: state.page,
      pageSize: state.pageSize,
      sort: state.sort,
      order: state.order,
      q: state.q.trim(),
      filters: state.filters,
      params: params ?? {},
      cursor,
    },
  ] as const;
  const query = useQuery({
    queryKey,
    queryFn: ({ signal }) => apiJson<Paginated<T>>('GET', requestUrl, undefined, { signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
  const nextCursor = query.isPlaceholderData ? undefined : query.data?.nextCursor;
  const currentPage = state.page;

  const setters = useMemo<ListSetters>(
    () => ({
      setPage: (page) => {
        const target = Math.max(1, Math.floor(page));
        // "Next" from a page that came with a cursor: the next page reads on from it.
        if (nextCursor && target === currentPage + 1) {
          setCursors((prev) => ({
            view,
            byPage: { ...(prev.view === view ? prev.byPage : {}), [target]: nextCursor },
          }));
        }
        update((s) => ({ ...s, page: target }));
      },
      setPageSize: (size) => update((s) => ({ ...s, pageSize: size, page: 1 })),
      setSort: (sort, order = 'asc') =>
        update((s) => ({ ...s, sort: sort ?? defaults.sort, order: sort ? order : defaults.order, page: 1 })),
      toggleSort: (sort) =>
        update((s) => {
          if (s.sort !== sort) return { ...s, sort, order: 'asc', page: 1 };
          if (s.order === 'asc') return { ...s, order: 'desc', page: 1 };
          // Third click: back to the endpoint's default order (or the other direction when this is the default column).
          if (defaults.sort === sort) return { ...s, order: 'asc', page: 1 };
          return { ...s, sort: defaults.sort, order: defaults.order, page: 1 };
        }),
      setQ: (q) => update((s) => (s.q === q ? s : { ...s, q, page: 1 })),
      setFilter: (name, value) =>
        update((s) => {
          const nextFilters: FilterValues = { ...s.filters };
          if (value === undefined || value === '') delete nextFilters[name];
          else nextFilters[name] = value;
          return { ...s, filters: nextFilters, page: 1 };
        }),
      clearFilters: () => update((s) => ({ ...s, q: '', filters: {}, page: 1 })),
      reset: () => update(() => defaultListState(defaults)),
    }),
    [update, defaults, nextCursor, currentPage, view],
  );

  const hasActiveFilters =
    state.q.trim() !== '' || Object.values(state.filters).some((v) => v !== undefined && v !== '');
  const exportUrl = useCallback(
    (format: 'csv' | 'xlsx') => buildExportUrl(url, format, state, params),
    [url, state, params],
  );

  return {
    data: query.data,
    isLoading: query.isLoading,
    isFetching: query.isFetching,
    isPlaceholderData: query.isPlaceholderData,
    isError: query.isError,
    error: query.error,
    refetch: query.refetch,
    state,
    setters,
    hasActiveFilters,
    url,
    requestUrl,
    exportUrl,
    queryKey,
  };
}
