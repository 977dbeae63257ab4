import type { ReactNode } from 'react';
import type { RequestSummary } from '@outlay/contracts/requests';
import { ListCard, type DataTableColumn } from '@/components/data-table';
import { RequestStatusBadge } from '@/components/request-status-badge';
import { formatDate, formatDateTime, formatMoney, plural } from '@/lib/format';

/** "3 d", "5 h", "12 min" since a moment (the age of a request). */
export function ageOf(from: string | null | undefined, now = Date.now()): string {
  if (!from) return '—';
  const ms = now - new Date(from).getTime();
  if (!Number.isFinite(ms) || ms < 0) return '—';
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 60) return `${Math.max(1, minutes)} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h`;
  return `${Math.floor(hours / 24)} d`;
}

function Amount({ r }: { r: RequestSummary }) {
  return (
    <div className="flex flex-col items-end">
      <span className="tabular-nums">{formatMoney(r.amount, r.currency)}</span>
      {r.currency !== r.orgCurrency && (
        <span className="text-xs tabular-nums text-muted-foreground">{formatMoney(r.amountOrg, r.orgCurrency)}</span>
      )}
    </div>
  );
}

function Approvers({ r }: { r: RequestSummary }) {
  if (r.currentApprovers.length === 0) return <span className="text-muted-foreground">—</span>;
  return (
    <div className="flex flex-col">
      <span>{r.currentApprovers.map((a) => a.name).join(', ')}</span>
      {r.currentStepName && <span className="text-xs text-muted-foreground">{r.currentStepName}</span>}
    </div>
  );
}

const reference: DataTableColumn<RequestSummary> = {
  id: 'reference',
  header: 'Reference',
  sortable: true,
  hideable: false,
  className: 'font-mono text-xs whitespace-nowrap',
};
const title: DataTableColumn<RequestSummary> = {
  id: 'title',
  header: 'Title',
  sortable: true,
  hideable: false,
  cell: (r) => (
    <div className="flex min-w-40 flex-col">
      <span className="font-medium">{r.title}</span>
      {r.categoryName && <span className="text-xs text-muted-foreground">{r.categoryName}</span>}
    </div>
  ),
};
const status: DataTableColumn<RequestSummary> = {
  id: 'status',
  header: 'Status',
  sortable: true,
  cell: (r) => <RequestStatusBadge status={r.status} />,
};
const amount: DataTableColumn<RequestSummary> = {
  id: 'amount',
  header: 'Amount',
  sortable: true,
  sortKey: 'amountOrg',
  align: 'right',
  cell: (r) => <Amount r={r} />,
};
const approver: DataTableColumn<RequestSummary> = {
  id: 'currentApprovers',
  header: 'Current approver',
  cell: (r) => <Approvers r={r} />,
};
const age: DataTableColumn<RequestSummary> = {
  id: 'age',
  header: 'Age',
  sortable: true,
  sortKey: 'createdAt',
  cell: (r) => ageOf(r.submittedAt ?? r.createdAt),
};
const updated: DataTableColumn<RequestSummary> = {
  id: 'updatedAt',
  header: 'Updated',
  sortable: true,
  cell: (r) => formatDateTime(r.updatedAt),
};

export const MY_REQUEST_COLUMNS: DataTableColumn<RequestSummary>[] = [
  reference,
  title,
  status,
  amount,
  approver,
  age,
  updated,
];

export const MANAGEMENT_COLUMNS: DataTableColumn<RequestSummary>[] = [
  reference,
  title,
  { id: 'requester', header: 'Requester', sortable: true, cell: (r) => r.requester.name },
  { id: 'organizationName', header: 'Organization', sortable: true, sortKey: 'organization' },
  { id: 'departmentName', header: 'Department', hidden: true },
  { id: 'vendorName', header: 'Vendor', hidden: true },
  status,
  amount,
  {
    id: 'amountGroup',
    header: 'Group amount',
    sortable: true,
    align: 'right',
    cell: (r) => <span className="tabular-nums">{formatMoney(r.amountGroup, r.groupCurrency)}</span>,
  },
  approver,
  {
    id: 'flags',
    header: 'Checks',
    cell: (r) =>
      r.overBudget || r.findingsCount > 0 ? (
        <span className="text-xs font-medium text-amber-800">
          {[r.overBudget && 'Over budget', r.findingsCount > 0 && plural(r.findingsCount, 'finding')]
            .filter(Boolean)
            .join(' · ')}
        </span>
      ) : (
        <span className="text-muted-foreground">—</span>
      ),
  },
  { id: 'submittedAt', header: 'Submitted', sortable: true, cell: (r) => formatDate(r.submittedAt) ?? '—' },
  updated,
];

/** A request on a phone: reference, title, status, amount and age (with who asked, where it waits). */
export function RequestCard({
  r,
  onOpen,
  actions,
  showRequester = false,
}: {
  r: RequestSummary;
  onOpen: (r: RequestSummary) => void;
  actions?: ReactNode;
  showRequester?: boolean;
}) {
  const waitingOn =
    r.currentApprovers.length > 0 ? `waiting on ${r.currentApprovers.map((a) => a.name).join(', ')}` : null;
  return (
    <ListCard
      eyebrow={r.reference}
      title={r.title}
      badge={<RequestStatusBadge status={r.status} />}
      actions={actions}
      subtitle={
        [showRequester ? r.requester.name : null, r.categoryName, waitingOn].filter(Boolean).join(' · ') || undefined
      }
      meta={`${ageOf(r.submittedAt ?? r.createdAt)} old`}
      amount={<Amount r={r} />}
      onOpen={() => onOpen(r)}
      openLabel={`Open ${r.reference} ${r.title}`}
      testId="request-card"
    />
  );
}
