import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '@outlay/contracts/lists';

export type SortOrder = 'asc' | 'desc';
export type FilterValues = Record<string, string | undefined>;
/** Fixed parameters added to every list and export request (not kept in the URL). */
export type ExtraParams = Record<string, string | number | boolean | null | undefined>;

/** The view a list shows: what goes into the request and into the address bar. */
export interface ListState {
  page: number;
  pageSize: number;
  sort: string | undefined;
  order: SortOrder;
  q: string;
  filters: FilterValues;
}

export interface ListDefaults {
  pageSize: number;
  sort: string | undefined;
  order: SortOrder;
  filters: readonly string[];
}

export function defaultListState(defaults: ListDefaults): ListState {
  return { page: 1, pageSize: defaults.pageSize, sort: defaults.sort, order: defaults.order, q: '', filters: {} };
}

function positiveInt(value: string | null): number | undefined {
  if (!value || !/^\d+$/.test(value)) return undefined;
  const n = Number(value);
  return n >= 1 ? n : undefined;
}

/**
 * Reads the view from the address bar's query string. Unknown or out-of-range values fall back
 * to the defaults, so a hand-edited link still opens a valid view. `prefix` namespaces the
 * parameters when two tables share one page.
 */
export function readListState(search: URLSearchParams, defaults: ListDefaults, prefix = ''): ListState {
  const get = (name: string) => search.get(prefix + name);
  const pageSize = positiveInt(get('pageSize'));
  const order = get('order');
  const filters: FilterValues = {};
  for (const name of defaults.filters) {
    const value = get(name);
    if (value) filters[name] = value;
  }
  return {
    page: positiveInt(get('page')) ?? 1,
    pageSize: pageSize && (PAGE_SIZES as readonly number[]).includes(pageSize) ? pageSize : defaults.pageSize,
    sort: get('sort') || defaults.sort,
    order: order === 'asc' || order === 'desc' ? order : defaults.order,
    q: get('q') ?? '',
    filters,
  };
}

/**
 * Writes the view into a copy of the query string, leaving other parameters alone and
 * omitting values equal to the defaults so shared links stay short.
 */
export function writeListState(
  search: URLSearchParams,
  state: ListState,
  defaults: ListDefaults,
  prefix = '',
): URLSearchParams {
  const next = new URLSearchParams(search);
  const put = (name: string, value: string | undefined, fallback?: string) => {
    if (value === undefined || value === '' || value === fallback) next.delete(prefix + name);
    else next.set(prefix + name, value);
  };
  put('page', String(state.page), '1');
  put('pageSize', String(state.pageSize), String(defaults.pageSize));
  // The sort and order go in together when either differs, so the link is unambiguous.
  const sortIsDefault = state.sort === defaults.sort && state.order === defaults.order;
  put('sort', sortIsDefault ? undefined : state.sort);
  put('order', sortIsDefault ? undefined : state.order);
  put('q', state.q.trim() || undefined);
  for (const name of defaults.filters) put(name, state.filters[name]);
  return next;
}

function appendExtra(params: URLSearchParams, extra: ExtraParams | undefined) {
  for (const [name, value] of Object.entries(extra ?? {})) {
    if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
  }
}

function appendCommon(params: URLSearchParams, state: ListState) {
  if (state.sort) {
    params.set('sort', state.sort);
    params.set('order', state.order);
  }
  const q = state.q.trim();
  if (q) params.set('q', q);
  for (const [name, value] of Object.entries(state.filters)) {
    if (value !== undefined && value !== '') params.set(name, value);
  }
}

function withQuery(url: string, params: URLSearchParams) {
  const query = params.toString();
  if (!query) return url;
  return `${url}${url.includes('?') ? '&' : '?'}${query}`;
}

/**
 * `GET url?page&pageSize&sort&order&q&<filters>[&cursor]` — the list protocol of
 * `@outlay/contracts/lists`; `cursor` is the previous page's `nextCursor` on a keyset list.
 */
export function buildListUrl(url: string, state: ListState, extra?: ExtraParams, cursor?: string): string {
  const params = new URLSearchParams();
  params.set('page', String(state.page));
  params.set('pageSize', String(state.pageSize));
  if (cursor) params.set('cursor', cursor);
  appendCommon(params, state);
  appendExtra(params, extra);
  return withQuery(url, params);
}

/** `GET url/export?format=csv|xlsx&<same sort, q and filters>` — every matching row, no paging. */
export function buildExportUrl(url: string, format: 'csv' | 'xlsx', state: ListState, extra?: ExtraParams): string {
  const [path = url, existing] = url.split('?');
  const params = new URLSearchParams(existing);
  params.set('format', format);
  appendCommon(params, state);
  appendExtra(params, extra);
  return withQuery(`${path.replace(/\/$/, '')}/export`, params);
}

export const LIST_DEFAULT_PAGE_SIZE = DEFAULT_PAGE_SIZE;
