import { Ban, CheckCheck, Inbox, Route, UserRoundCheck } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import type { ApprovalItem } from '@outlay/contracts/approvals';
import { DataTable, DataTableFilterSelect, useListQuery, type DataTableColumn } from '@/components/data-table';
import { ConfirmDialog } from '@/components/form';
import { PageHeader } from '@/components/page-header';
import { RouteLink } from '@/components/route-link';
import { APPROVAL_TABS, RouteTabs } from '@/components/route-tabs';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { useAuth } from '@/lib/current-user';
import { formatDateTime, formatMoney, plural } from '@/lib/format';
import { useBulkApprove } from '../api/bulk-approve-requests';
import { APPROVAL_QUEUE_URL } from '../api/keys';
import { ApprovalDetailDialog } from '../components/approval-detail-dialog';
import { SLA_OPTIONS, SlaBadge } from '../components/sla-badge';
import { ageOf } from '../components/time';
import { AmountCell } from '../components/amount-cell';
import { QueueBudgetImpact } from '../components/queue-budget-impact';

const COLUMNS: DataTableColumn<ApprovalItem>[] = [
  {
    id: 'request',
    header: 'Request',
    hideable: false,
    cell: (i) => (
      <div className="flex min-w-48 max-w-72 flex-col whitespace-normal">
        <span className="font-mono text-xs text-muted-foreground">{i.reference}</span>
        <span className="font-medium">{i.title}</span>
        {i.onBehalfOf && (
          <span className="mt-0.5 inline-flex items-center gap-1 text-xs text-violet-800">
            <UserRoundCheck className="size-3" aria-hidden="true" />
            on behalf of {i.onBehalfOf.name}
          </span>
        )}
        <NotDecidable item={i} />
        <QueueBudgetImpact requestId={i.requestId} organizationName={i.organizationName} className="mt-1.5" />
      </div>
    ),
  },
  {
    id: 'requester',
    header: 'Requester',
    cell: (i) => (
      <div className="flex flex-col">
        <span>{i.requester.name}</span>
        <span className="max-w-44 whitespace-normal text-xs text-muted-foreground">
          {[i.organizationName, i.departmentName].filter(Boolean).join(' · ')}
        </span>
      </div>
    ),
  },
  { id: 'amount', header: 'Amount', align: 'right', cell: (i) => <AmountCell item={i} /> },
  {
    id: 'step',
    header: 'Step',
    // How long it has waited sits under the step it waits at: one column fewer keeps the queue
    // within a 1280 px screen.
    cell: (i) => (
      <div className="flex flex-col">
        <span>
          {i.stepPosition} of {i.stepCount} · {i.stepName}
        </span>
        <span className="text-xs text-muted-foreground" title={formatDateTime(i.waitingSince) ?? undefined}>
          waiting {ageOf(i.waitingSince) ?? '—'}
        </span>
      </div>
    ),
  },
  {
    id: 'sla',
    header: 'SLA',
    cell: (i) => (
      <div className="flex flex-col items-start gap-0.5">
        <SlaBadge state={i.slaState} />
        {i.dueAt && <span className="text-xs text-muted-foreground">due {formatDateTime(i.dueAt)}</span>}
      </div>
    ),
  },
  {
    id: 'flags',
    header: 'Checks',
    cell: (i) =>
      i.overBudget || i.findingsCount > 0 ? (
        <Checks item={i} />
      ) : (
        <span className="text-xs text-muted-foreground">None</span>
      ),
  },
  { id: 'categoryName', header: 'Category', hidden: true },
  { id: 'vendorName', header: 'Vendor', hidden: true },
];

/** Segregation of duties: the item is listed so the delegate knows of it, but someone else decides it. */
function NotDecidable({ item: i }: { item: ApprovalItem }) {
  if (i.decidable) return null;
  return (
    <span className="mt-1 flex items-start gap-1 text-xs text-red-800" data-testid="not-decidable">
      <Ban className="mt-0.5 size-3 shrink-0" aria-hidden="true" />
      <span>
        <span className="font-medium">Not yours to decide:</span> {i.blockedReason}
      </span>
    </span>
  );
}

function Checks({ item: i }: { item: ApprovalItem }) {
  if (!i.overBudget && i.findingsCount === 0) return null;
  return (
    <div className="flex flex-wrap gap-1">
      {i.overBudget && <Badge variant="danger">Over budget</Badge>}
      {i.findingsCount > 0 && <Badge variant="warning">{plural(i.findingsCount, 'finding')}</Badge>}
    </div>
  );
}

/**
 * Phones: one queue item as a card (the table would scroll sideways). The title is a button
 * stretched over the whole card, so a tap anywhere opens the item; the checkbox sits above it.
 */
function QueueCard({ item: i, onOpen }: { item: ApprovalItem; onOpen: (item: ApprovalItem) => void }) {
  return (
    <div className="flex flex-col gap-2" data-testid="approval-card">
      <div className="flex items-start justify-between gap-2">
        <button
          type="button"
          onClick={() => onOpen(i)}
          aria-label={`Open ${i.reference} ${i.title}`}
          className="min-w-0 text-left outline-none after:absolute after:inset-0 after:rounded-xl after:content-['']"
        >
          <span className="block font-mono text-xs text-muted-foreground">{i.reference}</span>{' '}
          <span className="block font-medium leading-snug">{i.title}</span>
        </button>
        <SlaBadge state={i.slaState} />
      </div>
      <div className="flex flex-col text-xs text-muted-foreground">
        <span>
          <span className="font-medium text-foreground">{i.requester.name}</span>
          {[i.organizationName, i.departmentName].filter(Boolean).map((part) => ` · ${part}`)}
        </span>
        {i.onBehalfOf && (
          <span className="mt-0.5 inline-flex items-center gap-1 text-violet-800">
            <UserRoundCheck className="size-3" aria-hidden="true" />
            on behalf of {i.onBehalfOf.name}
          </span>
        )}
        <NotDecidable item={i} />
      </div>
      <div className="flex items-end justify-between gap-3">
        <div className="flex min-w-0 flex-col text-xs">
          <span className="font-medium">
            Step {i.stepPosition} of {i.stepCount} · {i.stepName}
          </span>
          <span className="text-muted-foreground">
            waiting {ageOf(i.waitingSince) ?? '—'}
            {i.dueAt && ` · due ${formatDateTime(i.dueAt)}`}
          </span>
        </div>
        <div className="shrink-0 text-sm">
          <AmountCell item={i} />
        </div>
      </div>
      <Checks item={i} />
      <QueueBudgetImpact requestId={i.requestId} organizationName={i.organizationName} />
    </div>
  );
}

/** /approvals: the caller's queue (docs/product.md §3.4 "Approvals and workflows"). */
export default function ApprovalsPage() {
  const { user } = useAuth();
  const canAct = Boolean(user?.permissions.includes('approvals.act'));
  const query = useListQuery<ApprovalItem>({ url: APPROVAL_QUEUE_URL, filters: ['slaState'], enabled: canAct });
  const [open, setOpen] = useState<ApprovalItem | null>(null);
  const [bulk, setBulk] = useState<{ items: ApprovalItem[]; clear: () => void } | null>(null);
  const bulkApprove = useBulkApprove();

  if (user && !canAct) {
    return (
      <div>
        <PageHeader title="Approvals" description="Requests waiting for your decision." />
        <Alert variant="info">
          <Inbox aria-hidden="true" />
          <span>
            You do not approve requests. Requests you raise are approved by the people your organization’s workflows
            name; follow them on{' '}
            <Link href="/requests" className="font-medium underline">
              My Requests
            </Link>
            .
          </span>
        </Alert>
      </div>
    );
  }

  const total = query.data?.total;
  return (
    <div>
      <PageHeader
        title="Approvals"
        description={
          total === undefined
            ? 'Requests waiting for your decision, including those delegated to you.'
            : `${plural(total, 'request')} waiting for your decision, including those delegated to you.`
        }
        actions={<RouteLink path="/smart-approval-routing" icon={<Route aria-hidden="true" />} />}
      />
      <RouteTabs paths={APPROVAL_TABS} label="Approval screens" />
      <DataTable
        label="Approval queue"
        entityName="requests waiting for you"
        columns={COLUMNS}
        query={query}
        getRowId={(i) => i.requestId}
        getRowLabel={(i) => `${i.reference} ${i.title}`}
        searchPlaceholder="Search reference, title or requester…"
        exportFormats={false}
        toolbar={
          <DataTableFilterSelect
            query={query}
            name="slaState"
            label="SLA"
            allLabel="Any SLA state"
            options={SLA_OPTIONS}
          />
        }
        enableSelection
        bulkActions={(rows, clear) => (
          <Button size="sm" onClick={() => setBulk({ items: rows, clear })}>
            <CheckCheck aria-hidden="true" />
            Approve {rows.length} selected
          </Button>
        )}
        onRowClick={setOpen}
        renderCard={(i) => <QueueCard item={i} onOpen={setOpen} />}
        rowActions={(i) => (
          <Button size="sm" variant="outline" onClick={() => setOpen(i)} aria-label={`Open ${i.reference} ${i.title}`}>
            Open
          </Button>
        )}
        empty={
          <div className="flex flex-col items-center gap-2 text-center">
            <Inbox className="size-8 text-muted-foreground" aria-hidden="true" />
            <p className="font-medium">Nothing waiting for you</p>
            <p className="text-sm text-muted-foreground">
              New requests that need your approval appear here, and you are notified.
            </p>
          </div>
        }
      />
      <ApprovalDetailDialog item={open} onClose={() => setOpen(null)} />
      <ConfirmDialog
        open={Boolean(bulk)}
        onOpenChange={(next) => !next && setBulk(null)}
        destructive={false}
        title={`Approve ${plural(bulk?.items.length ?? 0, 'request')}?`}
        description="Each request is approved at your current step. Requests someone else decided in the meantime are skipped and listed."
        confirmLabel="Approve all"
        pendingLabel="Approving…"
        onConfirm={async () => {
          if (!bulk) return;
          const result = await bulkApprove.mutateAsync({ requestIds: bulk.items.map((i) => i.requestId) });
          bulk.clear();
          const byId = new Map(bulk.items.map((i) => [i.requestId, i.reference]));
          toast({
            title: `${result.approved.length} approved`,
            description:
              result.failed.length > 0
                ? `Not approved: ${result.failed.map((f) => `${byId.get(f.requestId) ?? f.requestId} (${f.message})`).join('; ')}`
                : 'They left your queue.',
            variant: result.failed.length > 0 ? 'warning' : 'success',
          });
        }}
      >
        <ul className="max-h-48 overflow-y-auto rounded-md border text-sm">
          {bulk?.items.map((i) => (
            <li key={i.requestId} className="flex justify-between gap-2 border-b px-3 py-1.5 last:border-b-0">
              <span className="truncate">
                <span className="font-mono text-xs text-muted-foreground">{i.reference}</span> {i.title}
              </span>
              <span className="shrink-0 tabular-nums">{formatMoney(i.amount, i.currency)}</span>
            </li>
          ))}
        </ul>
      </ConfirmDialog>
    </div>
  );
}
