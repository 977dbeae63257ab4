/**
 * Server-side data table for every list screen (list protocol: @outlay/contracts/lists).
 *
 * Why: one place for paging, sorting, search, filters, column choice, selection, CSV/XLSX
 * export and the loading / empty / error states, so every list behaves the same and the
 * view (page, pageSize, sort, order, q, filters) lives in the address bar — a reload or a
 * shared link opens the same view.
 *
 * How:
 *   const columns: DataTableColumn<Vendor>[] = [            // module scope (stable)
 *     { id: 'name', header: 'Name', sortable: true, cell: (v) => <Link href={`/vendors/${v.id}`}>{v.name}</Link> },
 *     { id: 'status', header: 'Status', cell: (v) => <StatusBadge status={v.status} /> },
 *     { id: 'spend', header: 'Spend', align: 'right', cell: (v) => formatMoney(v.spend, v.currency) },
 *   ];
 *   const query = useListQuery<Vendor>({ url: '/api/vendors', filters: ['status'], defaultSort: 'name' });
 *   <DataTable label="Vendors" columns={columns} query={query}
 *     toolbar={<DataTableFilterSelect query={query} name="status" label="Status" options={STATUS_OPTIONS} />}
 *     rowActions={(v) => <DataTableRowActions label={`Actions for ${v.name}`} actions={[{ label: 'Edit', onSelect: () => edit(v) }]} />}
 *     enableSelection bulkActions={(rows, clear) => <Button onClick={() => block(rows).then(clear)}>Block</Button>} />
 *
 * Export buttons download `<url>/export?format=csv|xlsx&<sort, q, filters>` (hide with
 * exportFormats={false}). After a mutation, `queryClient.invalidateQueries({ queryKey: [url] })`
 * refreshes every view of the list. Fixed params (e.g. an organization id from the route) go
 * in `params`; two tables on one page need distinct `urlPrefix`es.
 */
export { DataTable, type DataTableProps } from './data-table';
export { useListQuery, type ListQueryResult, type ListSetters, type UseListQueryOptions } from './use-list-query';
export { type DataTableColumn } from './columns';
export {
  DataTableFilterSelect,
  DataTableRowActions,
  type DataTableFilterSelectProps,
  type FilterOption,
  type RowAction,
} from './filter-select';
export { DataTablePagination, rangeLabel } from './pagination';
export { ListCard, type ListCardProps } from './list-card';
export { CardList, CARD_ITEM_CLASS, type CardListProps } from './card-list';
export { DataTableSearch, DataTableColumnsMenu, DataTableExportButtons, SEARCH_DEBOUNCE_MS } from './toolbar';
export { downloadFile } from './download';
export {
  buildListUrl,
  buildExportUrl,
  type ListState,
  type SortOrder,
  type FilterValues,
  type ExtraParams,
} from './list-params';
export { PAGE_SIZES, DEFAULT_PAGE_SIZE, type Paginated } from '@outlay/contracts/lists';
