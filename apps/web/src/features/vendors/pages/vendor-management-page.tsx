import { Ban, CheckCircle2, Eye, Pencil, Plus, ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { VENDOR_STATUS_LABELS, VENDOR_STATUS_VALUES, VENDOR_TRANSITIONS, type Vendor } from '@outlay/contracts/vendors';
import {
  DataTable,
  DataTableFilterSelect,
  DataTableRowActions,
  useListQuery,
  type DataTableColumn,
  type RowAction,
} from '@/components/data-table';
import { ListCard } from '@/components/data-table/list-card';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { formatDate, formatMoney } from '@/lib/format';
import { useVendorOrganizations } from '../api/vendor-organizations';
import { VENDORS_URL } from '../api/vendor';
import { PendingBankBadge } from '../components/pending-bank-change';
import { VendorDetailDialog } from '../components/vendor-detail-dialog';
import { CreateVendorDialog, EditVendorDialog, VENDOR_CURRENCIES } from '../components/vendor-form-dialog';
import { VendorStatusBadge } from '../components/vendor-status-badge';
import { VendorStatusDialog, type StatusAction } from '../components/vendor-status-dialogs';

const STATUS_OPTIONS = VENDOR_STATUS_VALUES.map((value) => ({ value, label: VENDOR_STATUS_LABELS[value] }));
const CURRENCY_OPTIONS = VENDOR_CURRENCIES.map((value) => ({ value, label: value }));

const COLUMNS: DataTableColumn<Vendor>[] = [
  {
    id: 'name',
    header: 'Name',
    sortable: true,
    hideable: false,
    cell: (v) => (
      <div className="flex flex-col">
        <span className="font-medium">{v.name}</span>
        {v.email && <span className="text-xs text-muted-foreground">{v.email}</span>}
      </div>
    ),
  },
  { id: 'taxId', header: 'Tax ID', sortable: true, className: 'font-mono text-xs' },
  { id: 'organizationName', header: 'Organization', sortable: true, sortKey: 'organization' },
  { id: 'status', header: 'Status', sortable: true, cell: (v) => <VendorStatusBadge status={v.status} /> },
  { id: 'currency', header: 'Currency', sortable: true },
  {
    id: 'paymentTermsDays',
    header: 'Payment terms',
    sortable: true,
    align: 'right',
    cell: (v) => (v.paymentTermsDays === 0 ? 'On receipt' : `${v.paymentTermsDays} days`),
  },
  {
    id: 'spendToDate',
    header: 'Spend to date',
    align: 'right',
    cell: (v) => <span className="tabular-nums">{formatMoney(v.spendToDate, v.spendCurrency)}</span>,
  },
  {
    id: 'openBalance',
    header: 'Open balance',
    align: 'right',
    cell: (v) => <span className="tabular-nums">{formatMoney(v.openBalance, v.spendCurrency)}</span>,
  },
  {
    id: 'bankAccountMasked',
    header: 'Bank account',
    cell: (v) => (
      <span className="flex flex-wrap items-center gap-1">
        {v.bankAccountMasked ? (
          <span className="font-mono text-xs" aria-label={`Bank account ending ${v.bankAccountMasked.slice(-4)}`}>
            {v.bankAccountMasked}
          </span>
        ) : (
          <span className="text-muted-foreground">None on file</span>
        )}
        <PendingBankBadge vendor={v} />
      </span>
    ),
  },
  { id: 'contactName', header: 'Contact', hidden: true },
  { id: 'phone', header: 'Phone', hidden: true },
  { id: 'updatedAt', header: 'Last changed', sortable: true, hidden: true, cell: (v) => formatDate(v.updatedAt) },
];

/** /vendor-management: the vendor master with masked bank details (docs/product.md §3.9). */
export default function VendorManagementPage() {
  const organizations = useVendorOrganizations();
  const orgs = organizations.data?.items ?? [];
  const query = useListQuery<Vendor>({
    url: VENDORS_URL,
    filters: ['status', 'organizationId', 'currency'],
    defaultSort: 'name',
  });
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<Vendor | null>(null);
  const [statusAction, setStatusAction] = useState<StatusAction>(null);
  const [viewing, setViewing] = useState<Vendor | null>(null);

  const actionsFor = (v: Vendor): RowAction[] => {
    const next = VENDOR_TRANSITIONS[v.status];
    const actions: RowAction[] = [
      { label: 'View details', icon: <Eye aria-hidden="true" />, onSelect: () => setViewing(v) },
      { label: 'Edit', icon: <Pencil aria-hidden="true" />, onSelect: () => setEditing(v) },
    ];
    if (v.status === 'pending_verification' && next.includes('active')) {
      actions.push({
        label: 'Mark as verified',
        icon: <ShieldCheck aria-hidden="true" />,
        onSelect: () => setStatusAction({ vendor: v, to: 'active' }),
      });
    }
    if (v.status === 'blocked') {
      actions.push({
        label: 'Unblock',
        icon: <CheckCircle2 aria-hidden="true" />,
        onSelect: () => setStatusAction({ vendor: v, to: 'active' }),
      });
    }
    if (next.includes('blocked')) {
      actions.push({
        label: 'Block',
        icon: <Ban aria-hidden="true" />,
        destructive: true,
        separated: true,
        onSelect: () => setStatusAction({ vendor: v, to: 'blocked' }),
      });
    }
    return actions;
  };

  return (
    <div>
      <PageHeader
        title="Vendor Management"
        description="Who the group pays and on what terms. Bank details are stored encrypted; only the last four characters are shown."
      />
      <DataTable
        label="Vendors"
        columns={COLUMNS}
        query={query}
        searchPlaceholder="Search by name or tax ID…"
        toolbar={
          <>
            <DataTableFilterSelect
              query={query}
              name="status"
              label="Status"
              allLabel="All statuses"
              options={STATUS_OPTIONS}
            />
            {orgs.length > 1 && (
              <DataTableFilterSelect
                query={query}
                name="organizationId"
                label="Organization"
                allLabel="All organizations"
                options={orgs.map((o) => ({ value: o.id, label: o.name }))}
              />
            )}
            <DataTableFilterSelect
              query={query}
              name="currency"
              label="Currency"
              allLabel="All currencies"
              options={CURRENCY_OPTIONS}
              className="sm:w-36"
            />
          </>
        }
        actions={
          <Button onClick={() => setCreating(true)} disabled={orgs.length === 0}>
            <Plus aria-hidden="true" />
            New vendor
          </Button>
        }
        empty={
          <div className="flex flex-col items-center gap-3 text-center">
            <p className="font-medium">No vendors yet</p>
            <p className="text-sm text-muted-foreground">
              Add the companies you buy from to pay them and track their terms.
            </p>
          </div>
        }
        rowActions={(v) => <DataTableRowActions label={`Actions for ${v.name}`} actions={actionsFor(v)} />}
        renderCard={(v) => (
          <ListCard
            testId="vendor-card"
            title={v.name}
            subtitle={`${v.organizationName} · ${v.taxId}`}
            badge={<VendorStatusBadge status={v.status} />}
            onOpen={() => setViewing(v)}
            openLabel={`Details of ${v.name}`}
            actions={<DataTableRowActions label={`Actions for ${v.name}`} actions={actionsFor(v)} />}
            meta={
              <span className="flex flex-col items-start gap-1">
                <span>
                  Open balance{' '}
                  <span className="tabular-nums text-foreground">{formatMoney(v.openBalance, v.spendCurrency)}</span>
                </span>
                <PendingBankBadge vendor={v} />
              </span>
            }
            amount={
              <span aria-label={`Spend to date ${formatMoney(v.spendToDate, v.spendCurrency)}`}>
                <span className="block text-right text-xs font-normal text-muted-foreground">Spend to date</span>
                {formatMoney(v.spendToDate, v.spendCurrency)}
              </span>
            }
          />
        )}
      />
      <VendorDetailDialog vendor={viewing} onClose={() => setViewing(null)} />
      {creating && <CreateVendorDialog open={creating} onOpenChange={setCreating} organizations={orgs} />}
      {editing && (
        <EditVendorDialog key={editing.id} open onOpenChange={(open) => !open && setEditing(null)} vendor={editing} />
      )}
      <VendorStatusDialog action={statusAction} onClose={() => setStatusAction(null)} />
    </div>
  );
}
