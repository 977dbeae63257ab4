import { useState } from 'react';
import {
  DEFAULT_FLOW_STATUSES,
  FLOW_NODE_KIND_VALUES,
  FLOW_STATUS_VALUES,
  type FlowNode,
  type FlowStatus,
} from '@outlay/contracts/financial-flow';
import { PageHeader } from '@/components/page-header';
import { QueryState } from '@/components/query-state';
import { defaultPeriod, ReportFilters, type ReportFilterValues } from '@/components/report-filters';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { formatMoney, formatMonth, plural } from '@/lib/format';
import { useNarrow } from '@/lib/use-narrow';
import { useBudgetOptions } from '@/features/budgets';
import { useFinancialFlow, type FlowParams } from '../api/get-financial-flow';
import { FLOW_KIND_COLORS, FLOW_KIND_PLURALS } from '../components/flow-colors';
import { FlowColumns } from '../components/flow-columns';
import { FlowDiagram } from '../components/flow-diagram';
import { FlowRequestsPanel } from '../components/flow-requests-panel';
import { FlowTable } from '../components/flow-table';

const STATUS_LABELS: Record<FlowStatus, string> = { approved: 'Approved', paid: 'Paid', pending: 'Pending' };

function StatusFilter({ value, onChange }: { value: FlowStatus[]; onChange: (next: FlowStatus[]) => void }) {
  return (
    <fieldset className="flex flex-col gap-1.5">
      <legend className="mb-1.5 text-sm font-medium">Statuses</legend>
      <div className="flex flex-wrap gap-x-4 gap-y-2">
        {FLOW_STATUS_VALUES.map((s) => (
          <label key={s} className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              className="size-4"
              checked={value.includes(s)}
              // At least one status stays chosen: a flow of nothing is not a question.
              disabled={value.length === 1 && value.includes(s)}
              onChange={(e) =>
                onChange(
                  e.target.checked
                    ? FLOW_STATUS_VALUES.filter((v) => v === s || value.includes(v))
                    : value.filter((v) => v !== s),
                )
              }
            />
            {STATUS_LABELS[s]}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function Legend() {
  return (
    <ul
      className="hidden flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground sm:flex"
      aria-label="Columns of the diagram, left to right"
    >
      {FLOW_NODE_KIND_VALUES.map((k) => (
        <li key={k} className="flex items-center gap-1.5">
          <span
            className="inline-block size-3 rounded-sm"
            style={{ background: FLOW_KIND_COLORS[k] }}
            aria-hidden="true"
          />
          {FLOW_KIND_PLURALS[k]}
        </li>
      ))}
    </ul>
  );
}

/** /financial-flow: where the money goes, organization → department → category → vendor, with the requests behind each node. */
export default function FinancialFlowPage() {
  const options = useBudgetOptions();
  const [filters, setFilters] = useState<ReportFilterValues>(() => defaultPeriod());
  const [statuses, setStatuses] = useState<FlowStatus[]>([...DEFAULT_FLOW_STATUSES]);
  const [selected, setSelected] = useState<FlowNode | null>(null);
  // A phone gets the diagram's columns stacked as cards; the diagram itself is not drawn there.
  const narrow = useNarrow();
  const params: FlowParams = { ...filters, statuses };
  const flow = useFinancialFlow(params);
  const change = (next: FlowParams) => {
    setFilters({
      from: next.from,
      to: next.to,
      organizationId: next.organizationId,
      departmentId: next.departmentId,
      categoryId: next.categoryId,
    });
    setStatuses(next.statuses);
    setSelected(null);
  };

  return (
    <div className="flex min-w-0 flex-col gap-4">
      <PageHeader
        title="Financial Flow"
        description="Where the money goes: from each organization through its departments and categories to the vendors, in the group currency at each month's average rate."
      />
      <div className="flex flex-col gap-3 lg:flex-row lg:flex-wrap lg:items-end">
        <ReportFilters
          idPrefix="flow"
          value={filters}
          options={options.data}
          onChange={(f) => change({ ...f, statuses })}
        />
        <StatusFilter value={statuses} onChange={(s) => change({ ...filters, statuses: s })} />
      </div>

      <QueryState
        query={flow}
        loadingLabel="Loading the financial flow"
        errorMessage="Could not load the financial flow."
        className="min-h-64"
      >
        {(data) =>
          data.links.length === 0 ? (
            <Card>
              <CardContent className="p-6 text-sm text-muted-foreground" data-testid="flow-empty">
                No {data.statuses.map((s) => STATUS_LABELS[s].toLowerCase()).join(' or ')} requests between{' '}
                {formatMonth(data.from)} and {formatMonth(data.to)} match these filters.
              </CardContent>
            </Card>
          ) : (
            <>
              <p className="text-sm" data-testid="flow-total">
                <span className="font-semibold tabular-nums">{formatMoney(data.total, data.currency)}</span> in{' '}
                {plural(data.requestCount, 'request')}, {formatMonth(data.from)} – {formatMonth(data.to)}
              </p>
              <Card>
                <CardHeader className="gap-2">
                  <CardTitle>Flow diagram</CardTitle>
                  <p className="hidden text-sm text-muted-foreground sm:block">
                    Hover a band or a bar for its amount; click a bar for its requests. The table below lists every
                    flow.
                  </p>
                  <p className="text-sm text-muted-foreground sm:hidden">
                    Each column of the diagram, largest first; tap one for its requests. The list below has every flow.
                  </p>
                  <Legend />
                </CardHeader>
                <CardContent className="min-w-0">
                  {/* From 640 px the diagram keeps a readable width, scrolling sideways in the card on a narrow tablet. */}
                  {narrow ? (
                    <FlowColumns flow={data} onSelect={setSelected} />
                  ) : (
                    <div
                      className="overflow-x-auto overflow-y-hidden"
                      data-testid="flow-diagram"
                      tabIndex={0}
                      role="region"
                      aria-label="Flow diagram (scrolls sideways)"
                    >
                      <FlowDiagram flow={data} selected={selected?.id ?? null} onSelect={setSelected} />
                    </div>
                  )}
                </CardContent>
              </Card>
              {selected && (
                <FlowRequestsPanel
                  key={selected.id}
                  node={selected}
                  params={params}
                  currency={data.currency}
                  onClose={() => setSelected(null)}
                />
              )}
              <Card>
                <CardHeader>
                  <CardTitle>Flows</CardTitle>
                </CardHeader>
                <CardContent className="min-w-0">
                  <FlowTable flow={data} onSelect={setSelected} />
                </CardContent>
              </Card>
            </>
          )
        }
      </QueryState>
    </div>
  );
}
