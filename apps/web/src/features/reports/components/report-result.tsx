import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { compareMoney } from '@outlay/contracts/money';
import {
  REPORT_DIMENSION_LABELS,
  REPORT_MEASURE_LABELS,
  type ReportDefinition,
  type ReportDimension,
  type ReportMeasure,
  type ReportResult,
  type ReportRow,
} from '@outlay/contracts/reports';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { formatCompact, formatMoney, formatMonth, formatNumber } from '@/lib/format';

const COLORS = ['#1d4ed8', '#059669', '#d97706', '#7c3aed', '#dc2626', '#0891b2', '#65a30d', '#db2777'];
/** Series a chart draws at most; the rest are summed as "Other". */
const MAX_SERIES = 7;

function keyLabel(row: ReportRow, d: ReportDimension): string {
  const key = row.keys[d];
  if (!key) return '';
  return d === 'month' && key.id ? formatMonth(key.id) : key.label;
}

function measureText(row: Pick<ReportRow, 'sum' | 'count' | 'average'>, m: ReportMeasure, currency: string): string {
  if (m === 'count') return formatNumber(row.count);
  return formatMoney(m === 'sum' ? row.sum : row.average, currency);
}

/** The measure a chart draws: the total when chosen, else the first chosen. */
function chartedMeasure(measures: readonly ReportMeasure[]): ReportMeasure {
  return measures.includes('sum') ? 'sum' : measures[0]!;
}

/**
 * Chart data: months run along the axis when month is a dimension (the other one makes the
 * series), otherwise the first dimension does and the second makes the series. Figures are
 * exact strings from the API; numbers are made only to draw.
 */
function chartData(def: ReportDefinition, result: ReportResult, measure: ReportMeasure) {
  const axis: ReportDimension = def.dimensions.includes('month') ? 'month' : def.dimensions[0]!;
  const seriesDim = def.dimensions.find((d) => d !== axis);
  const value = (r: ReportRow) => (measure === 'count' ? r.count : Number(measure === 'sum' ? r.sum : r.average));
  // The largest series by total keep their own colour; averages cannot be added, so "Other" is only for sums and counts.
  const totals = new Map<string, number>();
  for (const r of result.rows) {
    const s = seriesDim ? keyLabel(r, seriesDim) : REPORT_MEASURE_LABELS[measure];
    totals.set(s, (totals.get(s) ?? 0) + Math.abs(value(r)));
  }
  const ranked = [...totals.entries()].sort((a, b) => b[1] - a[1]).map(([s]) => s);
  const kept = measure === 'average' ? ranked : ranked.slice(0, MAX_SERIES);
  const other = ranked.length > kept.length ? 'Other' : null;
  const points = new Map<string, Record<string, number | string>>();
  const order: string[] = [];
  const sortedRows =
    axis === 'month'
      ? [...result.rows].sort((a, b) => (a.keys.month?.id ?? '').localeCompare(b.keys.month?.id ?? ''))
      : result.rows;
  for (const r of sortedRows) {
    const x = keyLabel(r, axis);
    let point = points.get(x);
    if (!point) {
      point = { x };
      points.set(x, point);
      order.push(x);
    }
    const s = seriesDim ? keyLabel(r, seriesDim) : REPORT_MEASURE_LABELS[measure];
    const name = kept.includes(s) ? s : other!;
    point[name] = ((point[name] as number | undefined) ?? 0) + value(r);
  }
  return { axis, points: order.map((x) => points.get(x)!), series: other ? [...kept, other] : kept };
}

function ResultChart({ def, result }: { def: ReportDefinition; result: ReportResult }) {
  const measure = chartedMeasure(def.measures);
  const { axis, points, series } = chartData(def, result, measure);
  const money = measure !== 'count';
  const format = (v: number | string) => (money ? formatMoney(String(v), result.currency) : formatNumber(Number(v)));
  const Chart = def.view === 'line' ? LineChart : BarChart;
  const title = `${REPORT_MEASURE_LABELS[measure]}${money ? ` (${result.currency})` : ''} by ${def.dimensions
    .slice(0, 2)
    .map((d) => REPORT_DIMENSION_LABELS[d].toLowerCase())
    .join(' and ')}`;
  return (
    <figure className="flex flex-col gap-2">
      {/* Clipped: a tooltip left open by a tap must not push a phone's page sideways. */}
      <div
        className="h-72 w-full overflow-hidden sm:h-80"
        role="img"
        aria-label={`${def.view === 'line' ? 'Line' : 'Bar'} chart: ${title}; ${points.length} points, ${series.length} series. The figures are in the table.`}
        data-testid="report-chart"
      >
        <ResponsiveContainer width="100%" height="100%">
          <Chart data={points} margin={{ top: 8, right: 8, bottom: 0, left: 0 }} accessibilityLayer={false}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e2e8f0" />
            <XAxis
              dataKey="x"
              tick={{ fontSize: 12, fill: '#475569' }}
              tickLine={false}
              axisLine={false}
              interval="preserveStartEnd"
            />
            <YAxis
              tick={{ fontSize: 12, fill: '#475569' }}
              tickLine={false}
              axisLine={false}
              width={64}
              tickFormatter={(v: number) => (money ? formatCompact(v, result.currency) : formatCompact(v))}
            />
            <Tooltip
              formatter={(v) => format(typeof v === 'number' ? v : String(v))}
              wrapperStyle={{ maxWidth: 280, zIndex: 10 }}
              contentStyle={{ whiteSpace: 'normal' }}
            />
            {/* Kept inside the chart's width: recharts sizes the legend once, and on a phone its items must wrap. */}
            <Legend wrapperStyle={{ fontSize: 12, maxWidth: '100%' }} />
            {series.map((s, i) =>
              def.view === 'line' ? (
                <Line
                  key={s}
                  dataKey={s}
                  name={s}
                  type="monotone"
                  stroke={COLORS[i % COLORS.length]}
                  strokeWidth={2}
                  dot={false}
                  connectNulls
                  isAnimationActive={false}
                />
              ) : (
                <Bar
                  key={s}
                  dataKey={s}
                  name={s}
                  stackId={axis === 'month' ? 'stack' : undefined}
                  fill={COLORS[i % COLORS.length]}
                  isAnimationActive={false}
                />
              ),
            )}
          </Chart>
        </ResponsiveContainer>
      </div>
      <figcaption className="text-xs text-muted-foreground">
        {title}
        {def.dimensions.length > 2 ? ' (the third dimension is in the table)' : ''}
      </figcaption>
    </figure>
  );
}

/** The run's rows: a table from 640 px, cards below; the totals last. */
function ResultTable({ def, result }: { def: ReportDefinition; result: ReportResult }) {
  const dims = def.dimensions;
  const measures = def.measures;
  const label = (m: ReportMeasure) => result.columns.find((c) => c.key === m)?.label ?? REPORT_MEASURE_LABELS[m];
  return (
    <>
      <div className="hidden overflow-x-auto sm:block">
        <table className="w-full text-sm">
          <caption className="sr-only">Report rows and totals</caption>
          <thead className="border-b bg-muted/40 text-left text-xs text-muted-foreground">
            <tr>
              {result.columns.map((c) => (
                <th key={c.key} scope="col" className={`p-3 font-medium ${c.kind === 'measure' ? 'text-right' : ''}`}>
                  {c.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {result.rows.map((r, i) => (
              <tr key={i} className="border-b last:border-0">
                {dims.map((d) => (
                  <td key={d} className="p-3">
                    {keyLabel(r, d)}
                  </td>
                ))}
                {measures.map((m) => (
                  <td key={m} className="p-3 text-right tabular-nums">
                    {measureText(r, m, result.currency)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
          <tfoot className="border-t bg-muted/40 font-medium">
            <tr>
              <th scope="row" colSpan={dims.length} className="p-3 text-left">
                Total
              </th>
              {measures.map((m) => (
                <td key={m} className="p-3 text-right tabular-nums">
                  {measureText(result.totals, m, result.currency)}
                </td>
              ))}
            </tr>
          </tfoot>
        </table>
      </div>
      <ul className="divide-y sm:hidden" aria-label="Report rows">
        {result.rows.map((r, i) => (
          <li key={i} className="flex flex-col gap-1 p-3 text-sm">
            <span className="font-medium break-words">{dims.map((d) => keyLabel(r, d)).join(' · ')}</span>
            <dl className="grid grid-cols-2 gap-x-3 gap-y-0.5 text-muted-foreground">
              {measures.map((m) => (
                <div key={m} className="contents">
                  <dt>{label(m)}</dt>
                  <dd className="text-right tabular-nums text-foreground">{measureText(r, m, result.currency)}</dd>
                </div>
              ))}
            </dl>
          </li>
        ))}
        <li className="flex flex-col gap-1 bg-muted/40 p-3 text-sm font-medium">
          <span>Total</span>
          <dl className="grid grid-cols-2 gap-x-3 gap-y-0.5">
            {measures.map((m) => (
              <div key={m} className="contents">
                <dt className="font-normal text-muted-foreground">{label(m)}</dt>
                <dd className="text-right tabular-nums">{measureText(result.totals, m, result.currency)}</dd>
              </div>
            ))}
          </dl>
        </li>
      </ul>
    </>
  );
}

/** The result of a run: the chart when the view is one, then always the rows (the chart's figures for everyone). */
export function ReportResultView({
  def,
  result,
  title,
}: {
  def: ReportDefinition;
  result: ReportResult;
  title: string;
}) {
  if (result.rows.length === 0) {
    return (
      <Card>
        <CardContent className="p-8 text-center">
          <p className="font-medium">No spend matches this report</p>
          <p className="text-sm text-muted-foreground">Widen the period, or choose other filters or statuses.</p>
        </CardContent>
      </Card>
    );
  }
  const largest = [...result.rows].sort((a, b) => compareMoney(b.sum, a.sum))[0]!;
  return (
    <Card>
      <CardHeader className="gap-1">
        <CardTitle className="text-base">{title}</CardTitle>
        <p className="text-sm text-muted-foreground">
          {formatMonth(result.period.from)} – {formatMonth(result.period.to)} · {formatNumber(result.rows.length)}{' '}
          {result.rows.length === 1 ? 'row' : 'rows'} · total {formatMoney(result.totals.sum, result.currency)} over{' '}
          {formatNumber(result.totals.count)} {result.totals.count === 1 ? 'request' : 'requests'} · largest:{' '}
          {def.dimensions.map((d) => keyLabel(largest, d)).join(' · ')}
        </p>
        {result.truncated && (
          <p className="text-sm text-amber-700">Only the largest rows are listed; the totals cover every row.</p>
        )}
      </CardHeader>
      <CardContent className="flex flex-col gap-4 p-0 sm:p-6 sm:pt-0">
        {def.view !== 'table' && (
          <div className="px-4 sm:px-0">
            <ResultChart def={def} result={result} />
          </div>
        )}
        <ResultTable def={def} result={result} />
      </CardContent>
    </Card>
  );
}
