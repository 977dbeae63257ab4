import { ArrowUpRight, Route, UserRoundCog } from 'lucide-react';
import { useState } from 'react';
import type { InFlightItem } from '@outlay/contracts/approvals';
import { QueryState } from '@/components/query-state';
import {
  DataTable,
  DataTableFilterSelect,
  DataTableRowActions,
  ListCard,
  useListQuery,
  type DataTableColumn,
} from '@/components/data-table';
import { PageHeader } from '@/components/page-header';
import { APPROVAL_TABS, RouteTabs } from '@/components/route-tabs';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { useOrganizationOptions } from '@/features/organizations';
import { formatDateTime, formatMoney } from '@/lib/format';
import { IN_FLIGHT_URL } from '../api/keys';
import { useCycleTimes } from '../api/get-cycle-times';
import { CycleTimeChart } from '../components/cycle-time-chart';
import { ManagementDialogs, type ManagementAction } from '../components/management-dialogs';
import { SLA_OPTIONS, SlaBadge } from '../components/sla-badge';
import { ageOf } from '../components/time';

const REASON_LABELS: Record<string, string> = {
  delegation: 'delegate',
  reassigned: 'reassigned',
  escalated: 'escalated',
  fallback: 'fallback',
};

const COLUMNS: DataTableColumn<InFlightItem>[] = [
  {
    id: 'request',
    header: 'Request',
    hideable: false,
    cell: (i) => (
      <div className="flex min-w-48 max-w-64 flex-col whitespace-normal">
        <span className="font-mono text-xs text-muted-foreground">{i.reference}</span>
        <span className="font-medium">{i.title}</span>
        <span className="text-xs text-muted-foreground">
          {i.requester.name} · {i.organizationName}
        </span>
      </div>
    ),
  },
  { id: 'amountOrg', header: 'Amount', align: 'right', cell: (i) => formatMoney(i.amountOrg, i.orgCurrency) },
  {
    id: 'step',
    header: 'Step',
    cell: (i) => (
      <span>
        {i.stepPosition} of {i.stepCount} · {i.stepName}
      </span>
    ),
  },
  {
    id: 'approvers',
    header: 'Waiting on',
    cell: (i) => (
      <div className="flex max-w-56 flex-col whitespace-normal text-sm">
        {i.approvers.length === 0 ? (
          <span className="text-destructive">Nobody</span>
        ) : (
          i.approvers.map((a) => (
            <span key={a.id}>
              {a.name}
              {REASON_LABELS[a.reason] && (
                <span className="text-xs text-muted-foreground"> ({REASON_LABELS[a.reason]})</span>
              )}
            </span>
          ))
        )}
      </div>
    ),
  },
  {
    id: 'activatedAt',
    header: 'Waiting',
    cell: (i) => <span title={formatDateTime(i.activatedAt) ?? undefined}>{ageOf(i.activatedAt) ?? '—'}</span>,
  },
  {
    id: 'sla',
    header: 'SLA',
    cell: (i) => (
      <div className="flex flex-col items-start gap-0.5">
        <SlaBadge state={i.slaState} />
        {i.dueAt && <span className="text-xs text-muted-foreground">due {formatDateTime(i.dueAt)}</span>}
        {i.escalatedAt && <span className="text-xs text-red-800">escalated {formatDateTime(i.escalatedAt)}</span>}
        {!i.escalatedAt && i.remindedAt && (
          <span className="text-xs text-muted-foreground">reminded {formatDateTime(i.remindedAt)}</span>
        )}
      </div>
    ),
  },
];

function CycleTimes({ organizationId }: { organizationId: string | undefined }) {
  const cycle = useCycleTimes(organizationId);
  return (
    <QueryState
      query={cycle}
      loadingLabel="Loading cycle times"
      errorMessage="Could not load the cycle times."
      className="justify-start"
    >
      {(data) => (
        <div className="grid gap-4 lg:grid-cols-2 [&>*]:min-w-0">
          <Card>
            <CardHeader>
              <CardTitle>Cycle time per step</CardTitle>
              <CardDescription>Hours from a step becoming active to its decision.</CardDescription>
            </CardHeader>
            <CardContent>
              <CycleTimeChart
                caption="Cycle time per step"
                nameHeader="Step"
                rows={data.steps.map((s) => ({ key: s.stepName, label: s.stepName, ...s }))}
              />
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>Cycle time per approver</CardTitle>
              <CardDescription>Hours from an item reaching the approver to their decision.</CardDescription>
            </CardHeader>
            <CardContent>
              <CycleTimeChart
                caption="Cycle time per approver"
                nameHeader="Approver"
                rows={data.approvers.map((a) => ({ key: a.approverId, label: a.name, ...a }))}
              />
            </CardContent>
          </Card>
        </div>
      )}
    </QueryState>
  );
}

const ALL = '__all';

/** /approvals-management: every in-flight approval in scope, SLAs, reassign/escalate/re-route, cycle times. */
export default function ApprovalsManagementPage() {
  const organizations = useOrganizationOptions();
  const orgs = organizations.data ?? [];
  const query = useListQuery<InFlightItem>({ url: IN_FLIGHT_URL, filters: ['slaState', 'organizationId'] });
  const [action, setAction] = useState<ManagementAction>(null);
  const [cycleOrg, setCycleOrg] = useState<string | undefined>(undefined);
  const actionsOf = (i: InFlightItem) => (
    <DataTableRowActions
      label={`Actions for ${i.reference}`}
      actions={[
        {
          label: 'Reassign…',
          icon: <UserRoundCog aria-hidden="true" />,
          onSelect: () => setAction({ kind: 'reassign', item: i }),
          disabled: i.approvers.length === 0,
        },
        {
          label: 'Escalate…',
          icon: <ArrowUpRight aria-hidden="true" />,
          onSelect: () => setAction({ kind: 'escalate', item: i }),
        },
        {
          label: 'Re-route…',
          icon: <Route aria-hidden="true" />,
          separated: true,
          onSelect: () => setAction({ kind: 'reroute', item: i }),
        },
      ]}
    />
  );

  return (
    <div className="flex flex-col gap-8">
      <div>
        <PageHeader
          title="Approvals Management"
          description="Every approval in flight in your scope, with its SLA. Reassign an approver, escalate a step or re-route a request; every change is audited."
        />
        <RouteTabs paths={APPROVAL_TABS} label="Approval screens" />
        <DataTable
          label="In-flight approvals"
          entityName="approvals in flight"
          columns={COLUMNS}
          query={query}
          getRowId={(i) => i.stepId}
          searchPlaceholder="Search reference, title or requester…"
          exportFormats={false}
          toolbar={
            <>
              <DataTableFilterSelect
                query={query}
                name="slaState"
                label="SLA"
                allLabel="Any SLA state"
                options={SLA_OPTIONS}
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
            </>
          }
          rowActions={actionsOf}
          renderCard={(i) => (
            <ListCard
              eyebrow={i.reference}
              title={i.title}
              badge={<SlaBadge state={i.slaState} />}
              actions={actionsOf(i)}
              subtitle={`${i.requester.name} · ${i.organizationName} · step ${i.stepPosition} of ${i.stepCount}, ${i.stepName}`}
              meta={`${i.approvers.length === 0 ? 'waiting on nobody' : `waiting on ${i.approvers.map((a) => a.name).join(', ')}`} for ${ageOf(i.activatedAt) ?? '—'}`}
              amount={formatMoney(i.amountOrg, i.orgCurrency)}
            />
          )}
          empty={
            <div className="flex flex-col items-center gap-2 text-center">
              <p className="font-medium">No approvals in flight</p>
              <p className="text-sm text-muted-foreground">Submitted requests waiting at a step appear here.</p>
            </div>
          }
        />
      </div>

      <section aria-labelledby="cycle-times-heading" className="flex flex-col gap-4">
        <div className="flex flex-col gap-2 sm:flex-row sm:items-end sm:justify-between">
          <div>
            <h2 id="cycle-times-heading" className="text-xl font-semibold tracking-tight">
              Approval cycle times
            </h2>
            <p className="text-sm text-muted-foreground">Average, median and 90th percentile, from decisions made.</p>
          </div>
          {orgs.length > 1 && (
            <Select value={cycleOrg ?? ALL} onValueChange={(v) => setCycleOrg(v === ALL ? undefined : v)}>
              <SelectTrigger aria-label="Cycle times for" className="h-10 w-full sm:w-56">
                <SelectValue placeholder="All organizations" />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value={ALL}>All organizations</SelectItem>
                {orgs.map((o) => (
                  <SelectItem key={o.id} value={o.id}>
                    {o.name}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          )}
        </div>
        <CycleTimes organizationId={cycleOrg} />
      </section>
      <ManagementDialogs action={action} onClose={() => setAction(null)} />
    </div>
  );
}
