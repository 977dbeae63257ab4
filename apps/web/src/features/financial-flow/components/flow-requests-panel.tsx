import { useEffect, useRef } from 'react';
import { X } from 'lucide-react';
import { FLOW_NODE_KIND_LABELS, type FlowNode, type FlowRequest } from '@outlay/contracts/financial-flow';
import { DataTable, type DataTableColumn } from '@/components/data-table';
import { StatusBadge } from '@/components/status-badges';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { formatMoney, formatMonth } from '@/lib/format';
import { useFlowRequests } from '../api/list-flow-requests';
import type { FlowParams } from '../api/get-financial-flow';

const where = (r: FlowRequest) =>
  [r.organizationName, r.departmentName, r.categoryName, r.vendorName].filter(Boolean).join(' · ');

function columns(currency: string): DataTableColumn<FlowRequest>[] {
  return [
    {
      id: 'reference',
      header: 'Request',
      sortable: true,
      hideable: false,
      cell: (r) => (
        <a href={`/requests?id=${r.id}`} className="flex min-w-40 flex-col whitespace-normal hover:underline">
          <span className="font-mono text-xs">{r.reference}</span>
          <span>{r.title}</span>
        </a>
      ),
    },
    // The one long column wraps, so the amounts stay in view.
    {
      id: 'where',
      header: 'Organization · department · category · vendor',
      accessor: where,
      className: 'min-w-48 whitespace-normal',
    },
    { id: 'month', header: 'Month', sortable: true, cell: (r) => formatMonth(r.month) },
    { id: 'status', header: 'Status', cell: (r) => <StatusBadge status={r.status} /> },
    { id: 'original', header: 'Amount', align: 'right', cell: (r) => formatMoney(r.amount, r.currency) },
    {
      id: 'amount',
      header: `In ${currency}`,
      align: 'right',
      sortable: true,
      cell: (r) => formatMoney(r.amountGroup, currency),
    },
  ];
}

/** The requests behind the chosen node, within the flow's period, statuses and filters. */
export function FlowRequestsPanel({
  node,
  params,
  currency,
  onClose,
}: {
  node: FlowNode;
  params: FlowParams;
  currency: string;
  onClose: () => void;
}) {
  const query = useFlowRequests(node.id, params);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
    heading.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, [node.id]);
  return (
    <Card aria-labelledby="flow-requests-title">
      <CardHeader className="flex flex-row items-start justify-between gap-2">
        <div className="min-w-0">
          <CardTitle id="flow-requests-title" ref={heading} tabIndex={-1} className="break-words outline-none">
            Requests of {node.name}
          </CardTitle>
          <p className="text-sm text-muted-foreground">
            {FLOW_NODE_KIND_LABELS[node.kind]}
            {node.organizationName ? ` of ${node.organizationName}` : ''} · {formatMoney(node.amount, currency)}
          </p>
        </div>
        <Button variant="ghost" size="icon" onClick={onClose} aria-label="Close the requests">
          <X className="size-4" aria-hidden="true" />
        </Button>
      </CardHeader>
      <CardContent>
        <DataTable
          label={`Requests of ${node.name}`}
          entityName="requests"
          columns={columns(currency)}
          query={query}
          exportFormats={false}
          columnMenu={false}
          columnStorageKey={false}
          searchPlaceholder="Search title or reference"
          empty={<p className="text-sm text-muted-foreground">No request of this node matches the filters.</p>}
          renderCard={(r) => (
            <a href={`/requests?id=${r.id}`} className="flex min-w-0 flex-col gap-1 rounded-lg border p-3 text-sm">
              <span className="flex items-center justify-between gap-2">
                <span className="font-mono text-xs">{r.reference}</span>
                <StatusBadge status={r.status} />
              </span>
              <span className="font-medium break-words">{r.title}</span>
              <span className="break-words text-muted-foreground">{where(r)}</span>
              <span className="flex justify-between gap-2">
                <span className="text-muted-foreground">{formatMonth(r.month)}</span>
                <span className="font-medium tabular-nums">{formatMoney(r.amountGroup, currency)}</span>
              </span>
            </a>
          )}
        />
      </CardContent>
    </Card>
  );
}
