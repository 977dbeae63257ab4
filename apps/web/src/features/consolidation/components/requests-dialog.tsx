import type { ConsolidationRequest } from '@outlay/contracts/consolidation';
import { DataTable, type DataTableColumn } from '@/components/data-table';
import { Badge } from '@/components/ui/badge';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { formatDate, formatMoney } from '@/lib/format';
import { useConsolidationRequests } from '../api/list-consolidation-requests';

export interface DrillTarget {
  organizationId: string;
  organizationName: string;
  categoryId?: string | null;
  categoryName?: string;
  from: string;
  to: string;
  periodLabel: string;
}

const COLUMNS: DataTableColumn<ConsolidationRequest>[] = [
  {
    id: 'reference',
    header: 'Request',
    hideable: false,
    cell: (r) => (
      <a href={`/requests?id=${r.id}`} className="flex flex-col hover:underline">
        <span className="font-mono text-xs">{r.reference}</span>
        <span>{r.title}</span>
      </a>
    ),
  },
  { id: 'categoryName', header: 'Category', sortable: false, cell: (r) => r.categoryName ?? 'Uncategorized' },
  {
    id: 'vendorName',
    header: 'Vendor',
    sortable: false,
    cell: (r) => (
      <span className="flex flex-wrap items-center gap-1">
        {r.vendorName ?? '—'}
        {r.intercompany && <Badge variant="outline">Intercompany</Badge>}
      </span>
    ),
  },
  { id: 'decidedAt', header: 'Decided', cell: (r) => formatDate(r.decidedAt) },
  { id: 'status', header: 'Status', cell: (r) => (r.status === 'paid' ? 'Paid' : 'Approved') },
  { id: 'amountOrg', header: 'Amount', align: 'right', cell: (r) => formatMoney(r.amountOrg, r.orgCurrency) },
];

/** Drill-down: the approved and paid requests behind a company's (or one category's) spend. */
export function RequestsDialog({ target, onClose }: { target: DrillTarget; onClose: () => void }) {
  const query = useConsolidationRequests(target);
  const scope = target.categoryName ? `${target.organizationName} · ${target.categoryName}` : target.organizationName;
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()}>
      <DialogContent className="max-w-4xl">
        <DialogHeader>
          <DialogTitle>Requests: {scope}</DialogTitle>
          <DialogDescription>
            Approved and paid requests decided in {target.periodLabel}, in the company&apos;s currency (the approved
            part of a partly approved request).
          </DialogDescription>
        </DialogHeader>
        <DataTable
          label="Requests behind this figure"
          entityName="requests"
          columns={COLUMNS}
          query={query}
          exportFormats={false}
          columnMenu={false}
          columnStorageKey={false}
          searchPlaceholder="Search requests"
          empty={<p className="text-sm text-muted-foreground">No approved or paid request in this period.</p>}
          renderCard={(r) => (
            <a href={`/requests?id=${r.id}`} className="flex min-w-0 flex-col gap-1 rounded-lg border p-3 text-sm">
              <span className="font-mono text-xs">{r.reference}</span>
              <span className="break-words font-medium">{r.title}</span>
              <span className="break-words text-muted-foreground">
                {r.vendorName ?? 'No vendor'}
                {r.intercompany ? ' (intercompany)' : ''} · {formatDate(r.decidedAt)}
              </span>
              <span className="tabular-nums">{formatMoney(r.amountOrg, r.orgCurrency)}</span>
            </a>
          )}
        />
      </DialogContent>
    </Dialog>
  );
}
