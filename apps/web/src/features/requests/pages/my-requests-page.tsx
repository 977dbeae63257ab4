import { Plus } from 'lucide-react';
import { Link } from 'wouter';
import { REQUEST_STATUS_LABELS, REQUEST_STATUS_VALUES, type RequestSummary } from '@outlay/contracts/requests';
import { DataTable, DataTableFilterSelect, useListQuery } from '@/components/data-table';
import { MY_REQUESTS_URL } from '../api/keys';
import { PageHeader } from '@/components/page-header';
import { REQUEST_TABS, RouteTabs } from '@/components/route-tabs';
import { Button } from '@/components/ui/button';
import { CategoryFilter, DateAmountFilters } from '../components/filter-input';
import { MY_REQUEST_COLUMNS, RequestCard } from '../components/request-columns';
import { RequestDetailSheet, useRequestIdParam } from '../components/request-detail-sheet';

const STATUS_OPTIONS = REQUEST_STATUS_VALUES.map((value) => ({ value, label: REQUEST_STATUS_LABELS[value] }));
const FILTERS = ['status', 'categoryId', 'from', 'to', 'minAmount', 'maxAmount'] as const;

/** /requests: the caller's own requests; a row (or ?id=) opens the full request in a sheet. */
export default function MyRequestsPage() {
  const query = useListQuery<RequestSummary>({
    url: MY_REQUESTS_URL,
    filters: FILTERS,
    defaultSort: 'updatedAt',
    defaultOrder: 'desc',
  });
  const [openId, setOpenId] = useRequestIdParam();
  // The amount bounds are in the organization's currency, the amount shown under each request.
  const orgCurrency = query.data?.items[0]?.orgCurrency;

  return (
    <div>
      <PageHeader
        title="My Requests"
        description="Your spending requests: where each one stands, who approves it next and how long it has waited."
        actions={
          <Button asChild>
            <Link href="/new-request">
              <Plus aria-hidden="true" />
              New request
            </Link>
          </Button>
        }
      />
      <RouteTabs paths={REQUEST_TABS} label="Request screens" />
      <DataTable
        label="My requests"
        entityName="requests"
        columns={MY_REQUEST_COLUMNS}
        query={query}
        exportFilename="my-requests"
        searchPlaceholder="Search by reference or title…"
        toolbar={
          <>
            <DataTableFilterSelect
              query={query}
              name="status"
              label="Status"
              allLabel="All statuses"
              options={STATUS_OPTIONS}
            />
            <CategoryFilter query={query} />
            <DateAmountFilters query={query} currency={orgCurrency} />
          </>
        }
        onRowClick={(r) => setOpenId(r.id)}
        renderCard={(r) => <RequestCard r={r} onOpen={() => setOpenId(r.id)} />}
        empty={
          <div className="flex flex-col items-center gap-3 text-center">
            <p className="font-medium">No requests yet</p>
            <p className="text-sm text-muted-foreground">Raise a request to ask for approval before you spend.</p>
            <Button asChild size="sm">
              <Link href="/new-request">New request</Link>
            </Button>
          </div>
        }
      />
      <RequestDetailSheet requestId={openId} onClose={() => setOpenId(null)} />
    </div>
  );
}
