import { useState } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import {
  BUDGET_PERIOD_LABELS,
  BUDGET_PERIOD_TYPES,
  type BudgetLineRequest,
  type BudgetPeriodType,
  type BudgetVsActual,
} from '@outlay/contracts/budgets';
import { isNegative } from '@outlay/contracts/money';
import { DataTable, useListQuery, type DataTableColumn } from '@/components/data-table';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { QueryState } from '@/components/query-state';
import { enumOptions, idOptions, SelectField } from '@/components/select-field';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { formatCompact, formatDate, formatMoney } from '@/lib/format';
import { useNarrow } from '@/lib/use-narrow';
import { useBudgetOptions } from '../api/budget-lines';
import { useBudgetVsActual } from '../api/budget-vs-actual';

type Line = BudgetVsActual['lines'][number];
type Group = BudgetVsActual['groups'][number];
const PERIOD_OPTIONS = enumOptions(BUDGET_PERIOD_TYPES, BUDGET_PERIOD_LABELS);
/** The chart shows this many lines, largest budget first; the table below lists every line. */
const CHART_TOP = 10;

/**
 * Axis names for the charted lines: each line's organization, department, category and period,
 * leaving out a part every charted line shares (one period, one organization), shortened to `max`.
 */
function axisNames(lines: Line[], max: number): Map<string, string> {
  const same = (pick: (l: Line) => string | null) => lines.every((l) => pick(l) === pick(lines[0]!));
  const sameOrg = same((l) => l.organizationName);
  const samePeriod = same((l) => l.periodLabel);
  return new Map(
    lines.map((l) => {
      const scope = [sameOrg ? null : l.organizationName, l.departmentName, l.categoryName];
      // Short names start with what tells lines apart: the category or department before the organization.
      const ordered = max < 30 ? [...scope].reverse() : scope;
      const parts = [...ordered, samePeriod ? null : l.periodLabel].filter((p): p is string => Boolean(p));
      const name = parts.length > 0 ? parts.join(' · ') : l.organizationName;
      return [l.id, name.length > max ? `${name.slice(0, max - 1)}…` : name];
    }),
  );
}

/** The lines (of one granularity) with the largest budgets, in the group currency, for the chart. */
function chartData(lines: Line[], top: number) {
  return [...lines]
    .sort((a, b) => Number(b.group.budget) - Number(a.group.budget))
    .slice(0, top)
    .map((l) => ({
      id: l.id,
      label: l.label,
      Budget: Number(l.group.budget),
      Committed: Number(l.group.committed),
      Actual: Number(l.group.actual),
      line: l,
    }));
}

function GroupTotalRow({ group, currency, showPayroll }: { group: Group; currency: string; showPayroll: boolean }) {
  const t = group.totals;
  return (
    <tr className="border-b bg-muted/40 font-medium">
      <td className="p-3">
        Total of {group.label.toLowerCase()} ({currency})
        <span className="block text-xs font-normal text-muted-foreground">
          {group.countedLineCount === group.lineCount
            ? `${group.lineCount} ${group.lineCount === 1 ? 'line' : 'lines'} added`
            : `${group.countedLineCount} of ${group.lineCount} lines added; the others sit inside one of them`}
        </span>
      </td>
      <td className="p-3 text-right tabular-nums">{formatMoney(t.budget, currency)}</td>
      <td className="p-3 text-right tabular-nums">{formatMoney(t.committed, currency)}</td>
      <td className="p-3 text-right tabular-nums">{formatMoney(t.actual, currency)}</td>
      {showPayroll && <td className="p-3 text-right tabular-nums">{formatMoney(t.payroll, currency)}</td>}
      <td className={`p-3 text-right tabular-nums ${isNegative(t.remaining) ? 'text-destructive' : ''}`}>
        {formatMoney(t.remaining, currency)}
      </td>
      <td className="p-3 text-right tabular-nums">{formatMoney(t.variance, currency)}</td>
      <td className="p-3 text-right tabular-nums">{t.percentUsed}%</td>
    </tr>
  );
}

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
  const query = useListQuery<BudgetLineRequest>({
    url: `/api/budgets/lines/${line.id}/requests`,
    syncUrl: false,
    pageSize: 10,
  });
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()}>
      <DialogContent className="max-w-3xl">
        <DialogHeader>
          <DialogTitle>Requests on {line.label}</DialogTitle>
          <DialogDescription>
            {formatMoney(line.committed, line.currency)} committed and {formatMoney(line.actual, line.currency)} actual
            of {formatMoney(line.budget, line.currency)}.
          </DialogDescription>
        </DialogHeader>
        <DataTable
          label="Requests on this line"
          entityName="requests"
          columns={[
            ...REQUEST_COLUMNS,
            {
              id: 'lineAmount',
              header: `In ${line.currency}`,
              align: 'right',
              cell: (r) => formatMoney(r.lineAmount, line.currency),
            },
          ]}
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
                {r.requesterName} · {r.kind === 'actual' ? 'Actual' : 'Committed'} ·{' '}
                {formatMoney(r.lineAmount, line.currency)}
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
  // Below 640 px the chart's axis gets shorter names.
  const narrow = useNarrow();
  const options = useBudgetOptions();
  const [periodType, setPeriodType] = useState<BudgetPeriodType>('quarter');
  const [date, setDate] = useState(() => new Date().toISOString().slice(0, 10));
  const [organizationId, setOrganizationId] = useState<string | undefined>();
  const [departmentId, setDepartmentId] = useState<string | undefined>();
  const [open, setOpen] = useState<Line | null>(null);
  const [chartType, setChartType] = useState<BudgetPeriodType | undefined>();
  const data = useBudgetVsActual({ periodType, date, organizationId, departmentId });
  const orgs = options.data?.organizations ?? [];
  const depts = (options.data?.departments ?? []).filter((d) => !organizationId || d.organizationId === organizationId);
  const report = data.data;
  const gc = report?.groupCurrency ?? 'USD';
  // Payroll is a column of its own once any line shown counts it (an organization switches it on per line).
  const showPayroll = report?.lines.some((l) => l.countsPayroll) ?? false;
  // The headline figures and the chart speak of one granularity: the one chosen, else the coarsest present.
  const headline = report ? (report.groups.find((g) => g.periodType === periodType) ?? report.groups[0]) : undefined;
  // The chart shows one granularity at a time (the headline's unless another is chosen).
  const charted = report?.groups.find((g) => g.periodType === chartType) ?? headline;
  const chartedLines = charted ? (report?.lines ?? []).filter((l) => l.periodType === charted.periodType) : [];
  const chart = chartData(chartedLines, CHART_TOP);
  const chartLabel = new Map(chart.map((c) => [c.id, c.label]));
  const ticks = axisNames(
    chart.map((c) => c.line),
    narrow ? 18 : 42,
  );

  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title="Budget vs Actual"
        description="Budget, committed (pending) and actual (approved or paid, with payroll on the lines that count it) money per budget line. Year, quarter and month lines are totalled apart, in the group currency; a line inside another is not added twice."
      />
      <div className="flex flex-wrap items-end gap-3">
        <SelectField
          id="bva-period"
          label="Period"
          value={periodType}
          options={PERIOD_OPTIONS}
          onChange={setPeriodType}
          className="w-36"
        />
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="bva-date">Containing the date</Label>
          <Input
            id="bva-date"
            type="date"
            value={date}
            onChange={(e) => e.target.value && setDate(e.target.value)}
            className="w-44"
          />
        </div>
        {orgs.length > 1 && (
          <SelectField
            id="bva-org"
            label="Organization"
            all="All organizations"
            value={organizationId}
            options={idOptions(orgs)}
            onChange={(next) => {
              setOrganizationId(next);
              setDepartmentId(undefined);
            }}
            className="w-52"
          />
        )}
        {organizationId && depts.length > 0 && (
          <SelectField
            id="bva-dept"
            label="Department"
            all="All departments"
            value={departmentId}
            options={idOptions(depts)}
            onChange={setDepartmentId}
            className="w-48"
          />
        )}
      </div>

      <QueryState
        query={data}
        loadingLabel="Loading budget vs actual"
        errorMessage="Could not load budget vs actual."
        className="p-10"
      >
        {(report) => (
          <>
            <p className="text-sm text-muted-foreground">
              {report.periodLabel}: {report.periodStart} to {report.periodEnd} · lines overlapping this period
            </p>
            {headline && (
              <section aria-labelledby="bva-headline" className="flex flex-col gap-2">
                <h2 id="bva-headline" className="text-sm font-medium">
                  {headline.label}: {headline.countedLineCount} of {headline.lineCount} added ({gc})
                </h2>
                <div className="grid grid-cols-2 gap-3 md:grid-cols-5">
                  <Figure label="Budget" value={headline.totals.budget} currency={gc} />
                  <Figure label="Committed" value={headline.totals.committed} currency={gc} />
                  <Figure label="Actual" value={headline.totals.actual} currency={gc} />
                  <Figure
                    label="Remaining"
                    value={headline.totals.remaining}
                    currency={gc}
                    tone={isNegative(headline.totals.remaining) ? 'text-destructive' : undefined}
                  />
                  <Figure
                    label={`Variance (${headline.totals.percentUsed}% used)`}
                    value={headline.totals.variance}
                    currency={gc}
                  />
                </div>
              </section>
            )}
            {report.lines.length === 0 ? (
              <Card>
                <CardContent className="p-8 text-center">
                  <p className="font-medium">No budget lines in this period</p>
                  <p className="text-sm text-muted-foreground">
                    Choose another period, or add lines under Budget Management.
                  </p>
                </CardContent>
              </Card>
            ) : (
              <>
                {charted && chart.length > 0 && (
                  <Card>
                    <CardHeader className="gap-2">
                      <div className="flex flex-wrap items-center justify-between gap-2">
                        <CardTitle className="text-base">
                          {charted.label}: budget, committed and actual ({gc})
                        </CardTitle>
                        {report.groups.length > 1 && (
                          <div role="group" aria-label="Lines in the chart" className="flex flex-wrap gap-1">
                            {report.groups.map((g) => (
                              <Button
                                key={g.periodType}
                                type="button"
                                size="sm"
                                variant={g.periodType === charted.periodType ? 'default' : 'outline'}
                                aria-pressed={g.periodType === charted.periodType}
                                onClick={() => setChartType(g.periodType)}
                              >
                                {g.label} ({g.lineCount})
                              </Button>
                            ))}
                          </div>
                        )}
                      </div>
                      <p className="text-sm text-muted-foreground">
                        {chartedLines.length > chart.length
                          ? `The ${chart.length} largest budgets of ${chartedLines.length} lines; every line is in the table below.`
                          : `${chartedLines.length} ${chartedLines.length === 1 ? 'line' : 'lines'}, largest budget first.`}{' '}
                        Hover or tap a bar for the line&apos;s name and figures.
                      </p>
                    </CardHeader>
                    <CardContent>
                      {/* The tooltip stays inside the chart, even where it was left open before the window narrowed. */}
                      <div
                        className="w-full overflow-hidden"
                        style={{ height: 60 + chart.length * 44 }}
                        role="img"
                        aria-label={`Bar chart of budget, committed and actual money for the ${chart.length} largest ${charted.label.toLowerCase()}: ${chart.map((c) => c.label).join('; ')}`}
                        data-testid="bva-chart"
                      >
                        <ResponsiveContainer width="100%" height="100%">
                          <BarChart
                            data={chart}
                            layout="vertical"
                            margin={{ left: 4, right: 12, top: 4, bottom: 4 }}
                            barCategoryGap={8}
                          >
                            <CartesianGrid strokeDasharray="3 3" horizontal={false} />
                            <XAxis
                              type="number"
                              tick={{ fontSize: 11 }}
                              tickFormatter={(v: number) => formatCompact(v)}
                            />
                            <YAxis
                              type="category"
                              dataKey="id"
                              width={narrow ? 112 : 260}
                              tick={{ fontSize: 11 }}
                              interval={0}
                              tickFormatter={(id: string) => ticks.get(id) ?? ''}
                            />
                            <Tooltip
                              labelFormatter={(id) => chartLabel.get(String(id)) ?? String(id)}
                              formatter={(v) => formatMoney(String(v), gc)}
                              // Wraps inside the chart on a phone; item text in the body colour for contrast.
                              wrapperStyle={{ maxWidth: narrow ? 240 : 360, zIndex: 10 }}
                              contentStyle={{ whiteSpace: 'normal' }}
                              itemStyle={{ color: '#1e293b' }}
                              labelStyle={{ fontWeight: 600, color: '#0f172a' }}
                            />
                            <Legend />
                            <Bar dataKey="Budget" fill="#94a3b8" isAnimationActive={false} />
                            <Bar dataKey="Committed" fill="#f59e0b" isAnimationActive={false} />
                            <Bar dataKey="Actual" fill="#2563eb" isAnimationActive={false} />
                          </BarChart>
                        </ResponsiveContainer>
                      </div>
                    </CardContent>
                  </Card>
                )}
                <Card>
                  <CardContent className="p-0">
                    <div className="relative hidden overflow-x-auto md:block">
                      <table className="w-full text-sm">
                        <caption className="sr-only">
                          Budget vs actual per line; choose a line to see its requests
                        </caption>
                        <thead className="border-b bg-muted/40 text-left text-xs text-muted-foreground">
                          <tr>
                            <th className="p-3 font-medium">Line</th>
                            <th className="p-3 text-right font-medium">Budget</th>
                            <th className="p-3 text-right font-medium">Committed</th>
                            <th className="p-3 text-right font-medium">Actual</th>
                            {showPayroll && <th className="p-3 text-right font-medium">Of which payroll</th>}
                            <th className="p-3 text-right font-medium">Remaining</th>
                            <th className="p-3 text-right font-medium">Variance</th>
                            <th className="p-3 text-right font-medium">% used</th>
                          </tr>
                        </thead>
                        {report.groups.map((g) => (
                          <tbody key={g.periodType}>
                            <tr className="border-b">
                              <th
                                scope="rowgroup"
                                colSpan={showPayroll ? 8 : 7}
                                className="bg-muted/20 p-3 text-left text-xs font-semibold uppercase tracking-wide text-muted-foreground"
                              >
                                {g.label}
                              </th>
                            </tr>
                            {report.lines
                              .filter((l) => l.periodType === g.periodType)
                              .map((l) => (
                                <tr key={l.id} className="border-b hover:bg-muted/30">
                                  <td className="p-3">
                                    <button
                                      type="button"
                                      className="text-left hover:underline"
                                      onClick={() => setOpen(l)}
                                    >
                                      <span className="font-medium">{l.label}</span>
                                    </button>
                                    {!l.inTotal && (
                                      <span className="block text-xs text-muted-foreground">
                                        Inside {l.containedBy}, not added to the total
                                      </span>
                                    )}
                                  </td>
                                  <td className="p-3 text-right tabular-nums">{formatMoney(l.budget, l.currency)}</td>
                                  <td className="p-3 text-right tabular-nums">
                                    {formatMoney(l.committed, l.currency)}
                                  </td>
                                  <td className="p-3 text-right tabular-nums">{formatMoney(l.actual, l.currency)}</td>
                                  {showPayroll && (
                                    <td className="p-3 text-right tabular-nums">
                                      {l.countsPayroll ? (
                                        formatMoney(l.payroll, l.currency)
                                      ) : (
                                        <span className="text-muted-foreground">Not counted</span>
                                      )}
                                    </td>
                                  )}
                                  <td
                                    className={`p-3 text-right tabular-nums ${isNegative(l.remaining) ? 'text-destructive' : ''}`}
                                  >
                                    {formatMoney(l.remaining, l.currency)}
                                  </td>
                                  <td className="p-3 text-right tabular-nums">{formatMoney(l.variance, l.currency)}</td>
                                  <td
                                    className={`p-3 text-right tabular-nums ${Number(l.percentUsed) >= 100 ? 'font-medium text-destructive' : ''}`}
                                  >
                                    {l.percentUsed}%
                                  </td>
                                </tr>
                              ))}
                            <GroupTotalRow group={g} currency={gc} showPayroll={showPayroll} />
                          </tbody>
                        ))}
                      </table>
                    </div>
                    <div className="md:hidden">
                      {report.groups.map((g) => (
                        <section key={g.periodType} aria-label={g.label} className="border-b last:border-0">
                          <h3 className="bg-muted/20 px-3 py-2 text-xs font-semibold uppercase tracking-wide text-muted-foreground">
                            {g.label}
                          </h3>
                          <ul className="divide-y">
                            {report.lines
                              .filter((l) => l.periodType === g.periodType)
                              .map((l) => (
                                <li key={l.id}>
                                  <button
                                    type="button"
                                    className="flex w-full flex-col gap-1 p-3 text-left text-sm"
                                    onClick={() => setOpen(l)}
                                  >
                                    <span className="font-medium">{l.label}</span>
                                    <span className="text-muted-foreground">
                                      {formatMoney(l.actual, l.currency)} actual +{' '}
                                      {formatMoney(l.committed, l.currency)} committed of{' '}
                                      {formatMoney(l.budget, l.currency)} · {l.percentUsed}%
                                    </span>
                                    {l.countsPayroll && (
                                      <span className="text-xs text-muted-foreground">
                                        Of which payroll: {formatMoney(l.payroll, l.currency)}
                                      </span>
                                    )}
                                    {!l.inTotal && (
                                      <span className="text-xs text-muted-foreground">
                                        Inside {l.containedBy}, not added to the total
                                      </span>
                                    )}
                                  </button>
                                </li>
                              ))}
                          </ul>
                          <p className="bg-muted/40 p-3 text-sm font-medium">
                            Total of {g.label.toLowerCase()}: {formatMoney(g.totals.actual, gc)} actual +{' '}
                            {formatMoney(g.totals.committed, gc)} committed of {formatMoney(g.totals.budget, gc)} ·{' '}
                            {g.totals.percentUsed}%
                            <span className="block text-xs font-normal text-muted-foreground">
                              {g.countedLineCount} of {g.lineCount} {g.lineCount === 1 ? 'line' : 'lines'} added
                            </span>
                          </p>
                        </section>
                      ))}
                    </div>
                  </CardContent>
                </Card>
              </>
            )}
          </>
        )}
      </QueryState>
      {open && <LineRequestsDialog line={open} onClose={() => setOpen(null)} />}
    </div>
  );
}
