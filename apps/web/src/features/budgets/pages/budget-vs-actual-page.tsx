import { useState } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { BUDGET_PERIOD_LABELS, BUDGET_PERIOD_TYPES, type BudgetLineRequest, type BudgetPeriodType, type BudgetVsActual } from '@outlay/contracts/budgets';
import { isNegative } from '@outlay/contracts/money';
import { DataTable, useListQuery, type DataTableColumn } from '@/components/data-table';
import { PageHeader } from '@/components/page-header';
import { Alert } from '@/components/ui/alert';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Spinner } from '@/components/ui/spinner';
import { formatDate, formatMoney } from '@/lib/format';
import { useBudgetOptions } from '../api/budget-lines';
import { useBudgetVsActual } from '../api/budget-vs-actual';

type Line = BudgetVsActual['lines'][number];
const ALL = '__all';

const REQUEST_COLUMNS: DataTableColumn<BudgetLineRequest>[] = [
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
  { id: 'requesterName', header: 'Requester' },
  { id: 'kind', header: 'Counts as', cell: (r) => (r.kind === 'actual' ? 'Actual' : 'Committed') },
  { id: 'submittedAt', header: 'Submitted', cell: (r) => formatDate(r.submittedAt) },
  { id: 'amount', header: 'Amount', align: 'right', cell: (r) => formatMoney(r.amount, r.currency) },
];

function LineRequestsDialog({ line, onClose }: { line: Line; onClose: () => void }) {
  const query = useListQuery<BudgetLineRequest>({ url: `/api/budgets/lines/${line.id}/requests`, syncUrl: false, pageSize: 10 });
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()}>
      <DialogContent className="max-w-3xl">
        <DialogHeader>
          <DialogTitle>Requests on {line.label}</DialogTitle>
          <DialogDescription>
            {formatMoney(line.committed, line.currency)} committed and {formatMoney(line.actual, line.currency)} actual of {formatMoney(line.budget, line.currency)}.
          </DialogDescription>
        </DialogHeader>
        <DataTable
          label="Requests on this line"
          entityName="requests"
          columns={[...REQUEST_COLUMNS, { id: 'lineAmount', header: `In ${line.currency}`, align: 'right', cell: (r) => formatMoney(r.lineAmount, line.currency) }]}
          query={query}
          exportFormats={false}
          columnMenu={false}
          columnStorageKey={false}
          empty={<p className="text-sm text-muted-foreground">No request uses this line yet.</p>}
          renderCard={(r) => (
            <a href={`/requests?id=${r.id}`} className="flex flex-col gap-1 rounded-lg border p-3 text-sm">
              <span className="font-mono text-xs">{r.reference}</span>
              <span className="font-medium">{r.title}</span>
              <span className="text-muted-foreground">
                {r.requesterName} · {r.kind === 'actual' ? 'Actual' : 'Committed'} · {formatMoney(r.lineAmount, line.currency)}
              </span>
            </a>
          )}
        />
      </DialogContent>
    </Dialog>
  );
}

function Figure({ label, value, currency, tone }: { label: string; value: string; currency: string; tone?: string }) {
  return (
    <Card>
      <CardContent className="flex flex-col gap-1 p-4">
        <span className="text-xs text-muted-foreground">{label}</span>
        <span className={`text-lg font-semibold tabular-nums ${tone ?? ''}`}>{formatMoney(value, currency)}</span>
      </CardContent>
    </Card>
  );
}

/** /budget-vs-actual: budget against committed and actual money for a period and scope, with drill-down. */
export default function BudgetVsActualPage() {
  const options = useBudgetOptions();
  const [periodType, setPeriodType] = useState<BudgetPeriodType>('quarter');
  const [date, setDate] = useState(() => new Date().toISOString().slice(0, 10));
  const [organizationId, setOrganizationId] = useState<string | undefined>();
  const [departmentId, setDepartmentId] = useState<string | undefined>();
  const [open, setOpen] = useState<Line | null>(null);
  const data = useBudgetVsActual({ periodType, date, organizationId, departmentId });
  const orgs = options.data?.organizations ?? [];
  const depts = (options.data?.departments ?? []).filter((d) => !organizationId || d.organizationId === organizationId);
  const report = data.data;
  const gc = report?.groupCurrency ?? 'USD';
  const chart = (report?.lines ?? []).map((l) => ({
    name: [l.departmentName ?? l.categoryName ?? l.organizationName, l.periodLabel].join(' · '),
    Budget: Number(l.group.budget),
    Committed: Number(l.group.committed),
    Actual: Number(l.group.actual),
  }));

  return (
    <div className="flex flex-col gap-4">
      <PageHeader title="Budget vs Actual" description="Budget, committed (pending) and actual (approved or paid) money per budget line; totals in the group currency." />
      <div className="flex flex-wrap items-end gap-3">
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="bva-period">Period</Label>
          <Select value={periodType} onValueChange={(v) => setPeriodType(v as BudgetPeriodType)}>
            <SelectTrigger id="bva-period" className="w-36">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {BUDGET_PERIOD_TYPES.map((p) => (
                <SelectItem key={p} value={p}>
                  {BUDGET_PERIOD_LABELS[p]}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="bva-date">Containing the date</Label>
          <Input id="bva-date" type="date" value={date} onChange={(e) => e.target.value && setDate(e.target.value)} className="w-44" />
        </div>
        {orgs.length > 1 && (
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="bva-org">Organization</Label>
            <Select
              value={organizationId ?? ALL}
              onValueChange={(v) => {
                setOrganizationId(v === ALL ? undefined : v);
                setDepartmentId(undefined);
              }}
            >
              <SelectTrigger id="bva-org" className="w-52">
                <SelectValue />
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
          </div>
        )}
        {organizationId && depts.length > 0 && (
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="bva-dept">Department</Label>
            <Select value={departmentId ?? ALL} onValueChange={(v) => setDepartmentId(v === ALL ? undefined : v)}>
              <SelectTrigger id="bva-dept" className="w-48">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value={ALL}>All departments</SelectItem>
                {depts.map((d) => (
                  <SelectItem key={d.id} value={d.id}>
                    {d.name}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
        )}
      </div>

      {data.isError && (
        <Alert variant="danger" role="alert">
          {(data.error as Error).message}
        </Alert>
      )}
      {data.isPending && (
        <div className="flex justify-center p-10">
          <Spinner />
        </div>
      )}
      {report && (
        <>
          <p className="text-sm text-muted-foreground">
            {report.periodLabel}: {report.periodStart} to {report.periodEnd} · lines overlapping this period
          </p>
          <div className="grid grid-cols-2 gap-3 md:grid-cols-5">
            <Figure label="Budget" value={report.totals.budget} currency={gc} />
            <Figure label="Committed" value={report.totals.committed} currency={gc} />
            <Figure label="Actual" value={report.totals.actual} currency={gc} />
            <Figure label="Remaining" value={report.totals.remaining} currency={gc} tone={isNegative(report.totals.remaining) ? 'text-destructive' : undefined} />
            <Figure label={`Variance (${report.totals.percentUsed}% used)`} value={report.totals.variance} currency={gc} />
          </div>
          {report.lines.length === 0 ? (
            <Card>
              <CardContent className="p-8 text-center">
                <p className="font-medium">No budget lines in this period</p>
                <p className="text-sm text-muted-foreground">Choose another period, or add lines under Budget Management.</p>
              </CardContent>
            </Card>
          ) : (
            <>
              <Card>
                <CardHeader>
                  <CardTitle className="text-base">Budget, committed and actual per line ({gc})</CardTitle>
                </CardHeader>
                <CardContent>
                  <div className="h-72 w-full" role="img" aria-label={`Bar chart of budget, committed and actual money for ${report.lines.length} budget lines`}>
                    <ResponsiveContainer width="100%" height="100%">
                      <BarChart data={chart} margin={{ left: 8, right: 8 }}>
                        <CartesianGrid strokeDasharray="3 3" vertical={false} />
                        <XAxis dataKey="name" tick={{ fontSize: 11 }} interval={0} hide={chart.length > 8} />
                        <YAxis tick={{ fontSize: 11 }} width={70} tickFormatter={(v: number) => new Intl.NumberFormat('en-US', { notation: 'compact' }).format(v)} />
                        <Tooltip formatter={(v) => formatMoney(String(v), gc)} />
                        <Legend />
                        <Bar dataKey="Budget" fill="#94a3b8" isAnimationActive={false} />
                        <Bar dataKey="Committed" fill="#f59e0b" isAnimationActive={false} />
                        <Bar dataKey="Actual" fill="#2563eb" isAnimationActive={false} />
                      </BarChart>
                    </ResponsiveContainer>
                  </div>
                </CardContent>
              </Card>
              <Card>
                <CardContent className="p-0">
                  <div className="hidden overflow-x-auto md:block">
                    <table className="w-full text-sm">
                      <caption className="sr-only">Budget vs actual per line; choose a line to see its requests</caption>
                      <thead className="border-b bg-muted/40 text-left text-xs text-muted-foreground">
                        <tr>
                          <th className="p-3 font-medium">Line</th>
                          <th className="p-3 text-right font-medium">Budget</th>
                          <th className="p-3 text-right font-medium">Committed</th>
                          <th className="p-3 text-right font-medium">Actual</th>
                          <th className="p-3 text-right font-medium">Remaining</th>
                          <th className="p-3 text-right font-medium">Variance</th>
                          <th className="p-3 text-right font-medium">% used</th>
                        </tr>
                      </thead>
                      <tbody>
                        {report.lines.map((l) => (
                          <tr key={l.id} className="border-b last:border-0 hover:bg-muted/30">
                            <td className="p-3">
                              <button type="button" className="text-left hover:underline" onClick={() => setOpen(l)}>
                                <span className="font-medium">{l.label}</span>
                              </button>
                            </td>
                            <td className="p-3 text-right tabular-nums">{formatMoney(l.budget, l.currency)}</td>
                            <td className="p-3 text-right tabular-nums">{formatMoney(l.committed, l.currency)}</td>
                            <td className="p-3 text-right tabular-nums">{formatMoney(l.actual, l.currency)}</td>
                            <td className={`p-3 text-right tabular-nums ${isNegative(l.remaining) ? 'text-destructive' : ''}`}>{formatMoney(l.remaining, l.currency)}</td>
                            <td className="p-3 text-right tabular-nums">{formatMoney(l.variance, l.currency)}</td>
                            <td className={`p-3 text-right tabular-nums ${Number(l.percentUsed) >= 100 ? 'font-medium text-destructive' : ''}`}>{l.percentUsed}%</td>
                          </tr>
                        ))}
                      </tbody>
                      <tfoot className="border-t bg-muted/40 font-medium">
                        <tr>
                          <td className="p-3">Total ({gc})</td>
                          <td className="p-3 text-right tabular-nums">{formatMoney(report.totals.budget, gc)}</td>
                          <td className="p-3 text-right tabular-nums">{formatMoney(report.totals.committed, gc)}</td>
                          <td className="p-3 text-right tabular-nums">{formatMoney(report.totals.actual, gc)}</td>
                          <td className="p-3 text-right tabular-nums">{formatMoney(report.totals.remaining, gc)}</td>
                          <td className="p-3 text-right tabular-nums">{formatMoney(report.totals.variance, gc)}</td>
                          <td className="p-3 text-right tabular-nums">{report.totals.percentUsed}%</td>
                        </tr>
                      </tfoot>
                    </table>
                  </div>
                  <ul className="divide-y md:hidden" aria-label="Budget lines">
                    {report.lines.map((l) => (
                      <li key={l.id}>
                        <button type="button" className="flex w-full flex-col gap-1 p-3 text-left text-sm" onClick={() => setOpen(l)}>
                          <span className="font-medium">{l.label}</span>
                          <span className="text-muted-foreground">
                            {formatMoney(l.actual, l.currency)} actual + {formatMoney(l.committed, l.currency)} committed of {formatMoney(l.budget, l.currency)} · {l.percentUsed}%
                          </span>
                        </button>
                      </li>
                    ))}
                  </ul>
                </CardContent>
              </Card>
            </>
          )}
        </>
      )}
      {open && <LineRequestsDialog line={open} onClose={() => setOpen(null)} />}
    </div>
  );
}
