import { useState } from 'react';
import { Eye } from 'lucide-react';
import {
  ERROR_REPORT_SOURCE_LABELS,
  ERROR_REPORT_SOURCE_VALUES,
  ERROR_REPORT_STATUS_LABELS,
  ERROR_REPORT_STATUS_VALUES,
  type ErrorReport,
} from '@outlay/contracts/error-reports';
import {
  DataTable,
  DataTableFilterSelect,
  DataTableRowActions,
  useListQuery,
  type DataTableColumn,
} from '@/components/data-table';
import { ListCard } from '@/components/data-table/list-card';
import { PageHeader } from '@/components/page-header';
import { ReadOnlyNote, useHolds } from '@/components/read-only-note';
import { formatDateTime, formatNumber, plural } from '@/lib/format';
import { ERROR_REPORTS_URL } from '../api/get-error-report';
import { ErrorReportDetailDialog } from '../components/error-report-detail-dialog';
import { ErrorReportSourceBadge, ErrorReportStatusBadge } from '../components/error-report-status-badge';

const STATUS_OPTIONS = ERROR_REPORT_STATUS_VALUES.map((value) => ({ value, label: ERROR_REPORT_STATUS_LABELS[value] }));
const SOURCE_OPTIONS = ERROR_REPORT_SOURCE_VALUES.map((value) => ({ value, label: ERROR_REPORT_SOURCE_LABELS[value] }));

function people(r: ErrorReport): string {
  const signedOut = r.anonymousOccurrences > 0 ? ` (+${formatNumber(r.anonymousOccurrences)} signed out)` : '';
  return `${formatNumber(r.affectedUsers)}${signedOut}`;
}

const COLUMNS: DataTableColumn<ErrorReport>[] = [
  {
    id: 'message',
    header: 'Error',
    sortable: true,
    hideable: false,
    cell: (r) => (
      <div className="flex max-w-sm flex-col gap-0.5">
        <span className="line-clamp-2 break-words font-mono text-xs font-medium">{r.message}</span>
        {r.route && <span className="truncate font-mono text-xs text-muted-foreground">{r.route}</span>}
      </div>
    ),
  },
  { id: 'status', header: 'Status', sortable: true, cell: (r) => <ErrorReportStatusBadge status={r.status} /> },
  { id: 'source', header: 'Source', cell: (r) => <ErrorReportSourceBadge source={r.source} /> },
  {
    id: 'occurrences',
    header: 'Count',
    sortable: true,
    align: 'right',
    cell: (r) => <span className="tabular-nums">{formatNumber(r.occurrences)}</span>,
  },
  {
    id: 'affectedUsers',
    header: 'People',
    sortable: true,
    align: 'right',
    cell: (r) => <span className="tabular-nums">{people(r)}</span>,
  },
  { id: 'browser', header: 'Browser', cell: (r) => r.browser ?? <span className="text-muted-foreground">—</span> },
  { id: 'firstSeenAt', header: 'First seen', sortable: true, hidden: true, cell: (r) => formatDateTime(r.firstSeenAt) },
  { id: 'lastSeenAt', header: 'Last seen', sortable: true, cell: (r) => formatDateTime(r.lastSeenAt) },
];

/** /error-reports: what broke in the web app and the API, grouped, with counts and who ran into it (docs/product.md §3.13). */
export default function ErrorReportsPage() {
  const query = useListQuery<ErrorReport>({
    url: ERROR_REPORTS_URL,
    filters: ['status', 'source'],
    defaultSort: 'lastSeenAt',
    defaultOrder: 'desc',
  });
  const [viewing, setViewing] = useState<ErrorReport | null>(null);
  const open = (r: ErrorReport) => setViewing(r);
  // The Settings menu's roles see the errors; resolving and reopening them needs errors.read.
  const canChange = useHolds('errors.read');

  return (
    <div>
      <PageHeader
        title="Error Reports"
        description="Errors in the web app and the server, grouped by where they happen. Resolve one when it is fixed; if it happens again it comes back as regressed."
      />
      {!canChange && <ReadOnlyNote />}
      <DataTable
        label="Error reports"
        entityName="errors"
        columns={COLUMNS}
        query={query}
        exportFormats={false}
        searchPlaceholder="Search by message, route or browser…"
        onRowClick={open}
        toolbar={
          <>
            <DataTableFilterSelect
              query={query}
              name="status"
              label="Status"
              allLabel="All statuses"
              options={STATUS_OPTIONS}
            />
            <DataTableFilterSelect
              query={query}
              name="source"
              label="Source"
              allLabel="All sources"
              options={SOURCE_OPTIONS}
            />
          </>
        }
        empty={
          <div className="flex flex-col items-center gap-3 text-center">
            <p className="font-medium">No errors reported</p>
            <p className="text-sm text-muted-foreground">
              When the web app or the server fails, the error shows up here, grouped with its repeats.
            </p>
          </div>
        }
        rowActions={(r) => (
          <DataTableRowActions
            label={`Actions for ${r.message}`}
            actions={[{ label: 'View details', icon: <Eye aria-hidden="true" />, onSelect: () => open(r) }]}
          />
        )}
        renderCard={(r) => (
          <ListCard
            testId="error-report-card"
            title={<span className="line-clamp-3 font-mono text-sm">{r.message}</span>}
            subtitle={r.route ?? undefined}
            badge={<ErrorReportStatusBadge status={r.status} />}
            onOpen={() => open(r)}
            openLabel={`Details of ${r.message}`}
            meta={<span>Last seen {formatDateTime(r.lastSeenAt)}</span>}
            amount={
              <span className="text-sm tabular-nums">
                {plural(r.occurrences, 'time')}
                <span className="block text-right text-xs font-normal text-muted-foreground">
                  {plural(r.affectedUsers, 'person', 'people')}
                </span>
              </span>
            }
          />
        )}
      />
      <ErrorReportDetailDialog report={viewing} onClose={() => setViewing(null)} />
    </div>
  );
}
