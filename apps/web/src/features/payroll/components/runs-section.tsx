import { Plus } from 'lucide-react';
import { useState } from 'react';
import { useSearchParams } from 'wouter';
import {
  PAYROLL_RUN_STATUS_LABELS,
  PAYROLL_RUN_STATUS_VALUES,
  type PayrollOrganization,
  type PayrollRun,
} from '@outlay/contracts/payroll';
import { DataTable, DataTableFilterSelect, useListQuery, type DataTableColumn } from '@/components/data-table';
import { ListCard } from '@/components/data-table/list-card';
import { Button } from '@/components/ui/button';
import { capitalize, formatDate, formatMoney, formatMonth, formatMovedFrom, plural } from '@/lib/format';
import { PAYROLL_RUNS_URL } from '../api/payroll-run';
import { NewRunDialog } from './new-run-dialog';
import { PayrollStatusBadge } from './payroll-status-badge';
import { RunDialog } from './run-dialog';

const STATUS_OPTIONS = PAYROLL_RUN_STATUS_VALUES.map((value) => ({ value, label: PAYROLL_RUN_STATUS_LABELS[value] }));

const COLUMNS: DataTableColumn<PayrollRun>[] = [
  {
    id: 'period',
    header: 'Month',
    sortable: true,
    hideable: false,
    cell: (r) => <span className="font-medium">{formatMonth(r.period)}</span>,
  },
  { id: 'organizationName', header: 'Organization', sortable: true, sortKey: 'organization' },
  { id: 'status', header: 'Status', sortable: true, cell: (r) => <PayrollStatusBadge status={r.status} /> },
  { id: 'payDate', header: 'Pay date', cell: (r) => <PayDate run={r} /> },
  {
    id: 'employeeCount',
    header: 'Employees',
    align: 'right',
    cell: (r) => <span className="tabular-nums">{r.employeeCount}</span>,
  },
  {
    id: 'grossTotal',
    header: 'Gross',
    sortable: true,
    align: 'right',
    cell: (r) => <span className="tabular-nums">{formatMoney(r.grossTotal, r.currency)}</span>,
  },
  {
    id: 'netTotal',
    header: 'Net pay',
    sortable: true,
    align: 'right',
    cell: (r) => <span className="tabular-nums">{formatMoney(r.netTotal, r.currency)}</span>,
  },
  {
    id: 'employerCostTotal',
    header: 'Employer cost',
    align: 'right',
    cell: (r) => <span className="tabular-nums">{formatMoney(r.employerCostTotal, r.currency)}</span>,
  },
  { id: 'submittedByName', header: 'Submitted by', hidden: true, cell: (r) => r.submittedByName ?? '—' },
];

/** The day salaries go out and, when that is not the 25th, why (a weekend or a holiday of the organization's country). */
function PayDate({ run }: { run: PayrollRun }) {
  const moved = formatMovedFrom(run.payDateAdjustedFrom, run.payDateAdjustedReason);
  return (
    <span className="tabular-nums">
      {run.payDate ? formatDate(run.payDate) : '—'}
      {moved && <span className="block text-xs text-muted-foreground">{capitalize(moved)}</span>}
    </span>
  );
}

/** The runs list: newest month first, filtered by organization and status; a row opens the run. */
export function RunsSection({
  organizations,
  canManage,
}: {
  organizations: readonly PayrollOrganization[];
  canManage: boolean;
}) {
  const query = useListQuery<PayrollRun>({
    url: PAYROLL_RUNS_URL,
    filters: ['organizationId', 'status'],
    urlPrefix: 'runs.',
  });
  // The open run is in the address (?run=), so a notification or a shared link opens it.
  const [params, setParams] = useSearchParams();
  const open = params.get('run');
  const setOpen = (id: string | null) =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      if (id) next.set('run', id);
      else next.delete('run');
      return next;
    });
  const [creating, setCreating] = useState(false);
  return (
    <>
      <DataTable
        label="Payroll runs"
        entityName="run"
        exportFilename="payroll-runs"
        columns={COLUMNS}
        query={query}
        searchPlaceholder="Organization or month…"
        onRowClick={(r) => setOpen(r.id)}
        toolbar={
          <>
            <DataTableFilterSelect
              query={query}
              name="status"
              label="Status"
              allLabel="All statuses"
              options={STATUS_OPTIONS}
            />
            {organizations.length > 1 && (
              <DataTableFilterSelect
                query={query}
                name="organizationId"
                label="Organization"
                allLabel="All organizations"
                options={organizations.map((o) => ({ value: o.id, label: o.name }))}
              />
            )}
          </>
        }
        actions={
          canManage && (
            <Button onClick={() => setCreating(true)} disabled={organizations.length === 0}>
              <Plus aria-hidden="true" /> New run
            </Button>
          )
        }
        empty={
          <div className="flex flex-col items-center gap-2 text-center">
            <p className="font-medium">No payroll runs</p>
            <p className="text-sm text-muted-foreground">
              {canManage
                ? 'Create a draft for a month to compute its lines.'
                : 'Runs submitted for approval show here.'}
            </p>
          </div>
        }
        rowActions={(r) => (
          <Button size="sm" variant="ghost" onClick={() => setOpen(r.id)}>
            Open
            <span className="sr-only">
              {' '}
              {r.organizationName} {formatMonth(r.period)}
            </span>
          </Button>
        )}
        renderCard={(r) => (
          <ListCard
            testId="payroll-run-card"
            title={`${r.organizationName} · ${formatMonth(r.period)}`}
            subtitle={plural(r.employeeCount, 'employee')}
            badge={<PayrollStatusBadge status={r.status} />}
            onOpen={() => setOpen(r.id)}
            openLabel={`Open ${r.organizationName} ${formatMonth(r.period)}`}
            meta={
              <span>
                Gross {formatMoney(r.grossTotal, r.currency)}
                {r.payDate && (
                  <span className="block">
                    Pays {formatDate(r.payDate)}
                    {r.payDateAdjustedFrom && `, ${formatMovedFrom(r.payDateAdjustedFrom, r.payDateAdjustedReason)}`}
                  </span>
                )}
              </span>
            }
            amount={
              <span>
                <span className="block text-right text-xs font-normal text-muted-foreground">Net pay</span>
                {formatMoney(r.netTotal, r.currency)}
              </span>
            }
          />
        )}
      />
      <RunDialog runId={open} onClose={() => setOpen(null)} canManage={canManage} />
      {creating && (
        <NewRunDialog
          open={creating}
          onOpenChange={setCreating}
          organizations={organizations}
          onCreated={(run) => setOpen(run.id)}
        />
      )}
    </>
  );
}
