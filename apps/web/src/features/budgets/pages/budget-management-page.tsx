import { Copy, History, Pencil, Plus, Trash2, Upload } from 'lucide-react';
import { useState } from 'react';
import {
  BUDGET_PERIOD_LABELS,
  BUDGET_PERIOD_TYPES,
  type BudgetLine,
  type CopyBudgetPeriodResult,
} from '@outlay/contracts/budgets';
import { isNegative } from '@outlay/contracts/money';
import {
  DataTable,
  DataTableFilterSelect,
  DataTableRowActions,
  useListQuery,
  type DataTableColumn,
  type RowAction,
} from '@/components/data-table';
import { ConfirmDialog } from '@/components/form';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { useToast } from '@/components/ui/use-toast';
import { formatMoney } from '@/lib/format';
import { BUDGET_LINES_URL, useBudgetOptions, useDeleteBudgetLine } from '../api/budget-lines';
import {
  BudgetLineDialog,
  CopyPeriodDialog,
  CopyReportDialog,
  ImportDialog,
  UsageBar,
} from '../components/budget-dialogs';
import { LineHistoryDialog } from '../components/line-history-dialog';

const PERIOD_OPTIONS = BUDGET_PERIOD_TYPES.map((value) => ({ value, label: BUDGET_PERIOD_LABELS[value] }));

function scopeOf(l: BudgetLine) {
  return [l.departmentName, l.categoryName].filter(Boolean).join(' · ') || 'Whole organization';
}

const COLUMNS: DataTableColumn<BudgetLine>[] = [
  {
    id: 'organizationName',
    header: 'Budget line',
    sortable: true,
    hideable: false,
    cell: (l) => (
      <div className="flex flex-col">
        <span className="font-medium">{l.organizationName}</span>
        <span className="text-xs text-muted-foreground">{scopeOf(l)}</span>
      </div>
    ),
  },
  { id: 'periodStart', header: 'Period', sortable: true, cell: (l) => l.periodLabel },
  { id: 'amount', header: 'Budget', sortable: true, align: 'right', cell: (l) => formatMoney(l.amount, l.currency) },
  {
    id: 'percentUsed',
    header: 'Used',
    cell: (l) => <UsageBar percent={l.percentUsed} label={`${l.label}: ${l.percentUsed}% used`} />,
  },
  { id: 'committed', header: 'Committed', align: 'right', cell: (l) => formatMoney(l.committed, l.currency) },
  { id: 'actual', header: 'Actual', align: 'right', cell: (l) => formatMoney(l.actual, l.currency) },
  {
    id: 'payroll',
    header: 'Of which payroll',
    align: 'right',
    cell: (l) =>
      l.countsPayroll ? formatMoney(l.payroll, l.currency) : <span className="text-muted-foreground">Not counted</span>,
  },
  {
    id: 'remaining',
    header: 'Remaining',
    align: 'right',
    cell: (l) => (
      <span className={isNegative(l.remaining) ? 'font-medium text-destructive' : undefined}>
        {formatMoney(l.remaining, l.currency)}
      </span>
    ),
  },
  { id: 'thresholds', header: 'Alerts at', hidden: true, cell: (l) => l.thresholds.map((t) => `${t}%`).join(', ') },
  { id: 'notes', header: 'Notes', hidden: true },
];

/** /budget-management: budget lines with their consumption; create, edit, delete, copy, import, export. */
export default function BudgetManagementPage() {
  const { toast } = useToast();
  const options = useBudgetOptions();
  const opts = options.data;
  const query = useListQuery<BudgetLine>({
    url: BUDGET_LINES_URL,
    filters: ['periodType', 'organizationId', 'date'],
    defaultSort: 'periodStart',
    defaultOrder: 'desc',
  });
  const remove = useDeleteBudgetLine();
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<BudgetLine | null>(null);
  const [deleting, setDeleting] = useState<BudgetLine | null>(null);
  const [copying, setCopying] = useState(false);
  const [copied, setCopied] = useState<CopyBudgetPeriodResult | null>(null);
  const [importing, setImporting] = useState(false);
  const [history, setHistory] = useState<BudgetLine | null>(null);
  const canManage = Boolean(opts?.canManage);

  // History (the line's raises) is for everyone who reads budgets; changing a line for managers.
  const actionsFor = (l: BudgetLine): RowAction[] => [
    { label: 'History', icon: <History aria-hidden="true" />, onSelect: () => setHistory(l) },
    ...(canManage
      ? [
          { label: 'Edit', icon: <Pencil aria-hidden="true" />, onSelect: () => setEditing(l) },
          {
            label: 'Delete',
            icon: <Trash2 aria-hidden="true" />,
            destructive: true,
            separated: true,
            onSelect: () => setDeleting(l),
          },
        ]
      : []),
  ];

  return (
    <div>
      <PageHeader
        title="Budget Management"
        description="Budget lines per organization, department and category, and how much of each is committed (pending) and spent (approved or paid; with payroll on the lines that count it). Every screen shows these same figures."
      />
      <DataTable
        label="Budget lines"
        entityName="budget lines"
        columns={COLUMNS}
        query={query}
        searchPlaceholder="Search organization, department, category…"
        exportFilename="budget-lines"
        toolbar={
          <>
            <DataTableFilterSelect
              query={query}
              name="periodType"
              label="Period"
              allLabel="All periods"
              options={PERIOD_OPTIONS}
              className="sm:w-36"
            />
            {(opts?.organizations.length ?? 0) > 1 && (
              <DataTableFilterSelect
                query={query}
                name="organizationId"
                label="Organization"
                allLabel="All organizations"
                options={(opts?.organizations ?? []).map((o) => ({ value: o.id, label: o.name }))}
              />
            )}
          </>
        }
        actions={
          canManage && (
            <div className="flex flex-wrap gap-2">
              <Button variant="outline" onClick={() => setImporting(true)}>
                <Upload aria-hidden="true" />
                Import
              </Button>
              <Button variant="outline" onClick={() => setCopying(true)}>
                <Copy aria-hidden="true" />
                Copy from last period
              </Button>
              <Button onClick={() => setCreating(true)}>
                <Plus aria-hidden="true" />
                New line
              </Button>
            </div>
          )
        }
        empty={
          <div className="flex flex-col items-center gap-3 text-center">
            <p className="font-medium">No budget lines</p>
            <p className="text-sm text-muted-foreground">
              Add a line, copy last period’s or import a spreadsheet to start tracking spend against budget.
            </p>
          </div>
        }
        rowActions={(l) => <DataTableRowActions label={`Actions for ${l.label}`} actions={actionsFor(l)} />}
        renderCard={(l) => (
          <div className="flex flex-col gap-2 rounded-lg border p-3">
            <div className="flex items-start justify-between gap-2">
              <div className="flex flex-col">
                <span className="font-medium">{l.organizationName}</span>
                <span className="text-xs text-muted-foreground">
                  {scopeOf(l)} · {l.periodLabel}
                </span>
              </div>
              <DataTableRowActions label={`Actions for ${l.label}`} actions={actionsFor(l)} />
            </div>
            <UsageBar percent={l.percentUsed} label={`${l.label}: ${l.percentUsed}% used`} />
            <dl className="grid grid-cols-2 gap-1 text-xs">
              <dt className="text-muted-foreground">Budget</dt>
              <dd className="text-right tabular-nums">{formatMoney(l.amount, l.currency)}</dd>
              <dt className="text-muted-foreground">Committed</dt>
              <dd className="text-right tabular-nums">{formatMoney(l.committed, l.currency)}</dd>
              <dt className="text-muted-foreground">Actual</dt>
              <dd className="text-right tabular-nums">{formatMoney(l.actual, l.currency)}</dd>
              {l.countsPayroll && (
                <>
                  <dt className="text-muted-foreground">Of which payroll</dt>
                  <dd className="text-right tabular-nums">{formatMoney(l.payroll, l.currency)}</dd>
                </>
              )}
              <dt className="text-muted-foreground">Remaining</dt>
              <dd className="text-right tabular-nums">{formatMoney(l.remaining, l.currency)}</dd>
            </dl>
          </div>
        )}
      />
      {opts && creating && <BudgetLineDialog open onOpenChange={setCreating} options={opts} />}
      {opts && editing && (
        <BudgetLineDialog
          key={editing.id}
          open
          onOpenChange={(o) => !o && setEditing(null)}
          options={opts}
          line={editing}
        />
      )}
      {opts && copying && <CopyPeriodDialog open onOpenChange={setCopying} options={opts} onCopied={setCopied} />}
      <CopyReportDialog result={copied} onClose={() => setCopied(null)} />
      {importing && <ImportDialog open onOpenChange={setImporting} />}
      {history && <LineHistoryDialog key={history.id} line={history} onClose={() => setHistory(null)} />}
      <ConfirmDialog
        open={Boolean(deleting)}
        onOpenChange={(o) => !o && setDeleting(null)}
        title="Delete this budget line?"
        description={
          deleting
            ? `${deleting.label} (${formatMoney(deleting.amount, deleting.currency)}) will no longer be tracked. Requests are not affected.`
            : undefined
        }
        confirmLabel="Delete line"
        onConfirm={async () => {
          if (!deleting) return;
          await remove.mutateAsync(deleting.id);
          toast({ title: 'Budget line deleted', description: deleting.label });
          setDeleting(null);
        }}
      />
    </div>
  );
}
