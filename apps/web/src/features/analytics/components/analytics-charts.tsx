import { Bar, BarChart, CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { AnalyticsResponse } from '@outlay/contracts/analytics';
import { formatCompact, formatMoney, formatMonth, formatPercent } from '@/lib/format';

function shortMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Intl.DateTimeFormat(undefined, { month: 'short', year: '2-digit' }).format(
    new Date(Date.UTC(y, m - 1, 1, 12)),
  );
}

const axis = { fontSize: 12, fill: '#475569' };

/** Spend per month as a line; the same figures follow in a table for screen readers. */
export function SpendTrendChart({ data }: { data: AnalyticsResponse }) {
  // Numbers only to draw; the table and the tooltip read the exact strings.
  // A running month is drawn apart (dashed, from the last whole month) and named as running, so
  // its few days are never read as a whole month's fall.
  const partial = data.trend.find((p) => p.throughDay !== null);
  const rows = data.trend.map((p, i) => {
    const next = data.trend[i + 1];
    const whole = p.throughDay === null;
    return {
      label: whole ? shortMonth(p.month) : `${shortMonth(p.month)} (to ${p.throughDay})`,
      month: p.month,
      amount: whole ? Number(p.amount) : null,
      running: !whole || (next !== undefined && next.throughDay !== null) ? Number(p.amount) : null,
    };
  });
  const byMonth = new Map(data.trend.map((p) => [p.month, p]));
  return (
    <figure className="flex flex-col gap-2">
      <div
        className="h-64 w-full overflow-hidden"
        role="img"
        aria-label={`Spend per month from ${formatMonth(data.from)} to ${formatMonth(data.to)}, in ${data.currency}; the table follows.`}
      >
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={rows} margin={{ top: 8, right: 12, bottom: 0, left: 0 }} accessibilityLayer={false}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e2e8f0" />
            <XAxis dataKey="label" tick={axis} tickLine={false} axisLine={false} interval="preserveStartEnd" />
            <YAxis
              tick={axis}
              tickLine={false}
              axisLine={false}
              width={64}
              tickFormatter={(v: number) => formatCompact(v, data.currency)}
            />
            <Tooltip
              formatter={(_v, _n, item) => [
                formatMoney(byMonth.get((item.payload as { month: string }).month)?.amount ?? '0', data.currency),
                'Spend',
              ]}
              labelFormatter={(_l, payload) =>
                payload?.[0] ? formatMonth((payload[0].payload as { month: string }).month) : ''
              }
            />
            <Line
              dataKey="amount"
              name="Spend"
              type="monotone"
              stroke="#1d4ed8"
              strokeWidth={2}
              dot={{ r: 3 }}
              isAnimationActive={false}
              connectNulls={false}
            />
            {partial && (
              <Line
                dataKey="running"
                name="Spend so far"
                type="monotone"
                stroke="#1d4ed8"
                strokeWidth={2}
                strokeDasharray="5 4"
                dot={{ r: 3, fill: '#fff' }}
                isAnimationActive={false}
              />
            )}
          </LineChart>
        </ResponsiveContainer>
      </div>
      {partial && (
        <figcaption className="text-xs text-muted-foreground" data-testid="trend-partial">
          {formatMonth(partial.month)} is running: its figure covers days 1–{partial.throughDay} (dashed), not the whole
          month.
        </figcaption>
      )}
      <div className="sr-only">
        <table>
          <caption>Spend per month in {data.currency}</caption>
          <thead>
            <tr>
              <th scope="col">Month</th>
              <th scope="col">Spend</th>
              <th scope="col">Requests</th>
            </tr>
          </thead>
          <tbody>
            {data.trend.map((p) => (
              <tr key={p.month}>
                <th scope="row">
                  {p.throughDay === null ? formatMonth(p.month) : `${formatMonth(p.month)}, days 1–${p.throughDay}`}
                </th>
                <td>{formatMoney(p.amount, data.currency)}</td>
                <td>{p.requestCount}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}

/** Approved and rejected decisions per month as stacked bars, with the rate in the tooltip and the table. */
export function ApprovalChart({ data }: { data: AnalyticsResponse }) {
  const rows = data.approval.byMonth.map((m) => ({
    label: shortMonth(m.month),
    month: m.month,
    approved: m.approved,
    rejected: m.rejected,
  }));
  const byMonth = new Map(data.approval.byMonth.map((m) => [m.month, m]));
  return (
    <figure className="flex flex-col gap-2">
      <div
        className="h-64 w-full overflow-hidden"
        role="img"
        aria-label="Approved and rejected decisions per month; the table follows."
      >
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={rows} margin={{ top: 8, right: 12, bottom: 0, left: 0 }} accessibilityLayer={false}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e2e8f0" />
            <XAxis dataKey="label" tick={axis} tickLine={false} axisLine={false} interval="preserveStartEnd" />
            <YAxis tick={axis} tickLine={false} axisLine={false} width={40} allowDecimals={false} />
            <Tooltip
              labelFormatter={(_l, payload) => {
                const m = payload?.[0] ? byMonth.get((payload[0].payload as { month: string }).month) : undefined;
                return m
                  ? `${formatMonth(m.month)} · ${m.rate === null ? 'no decisions' : `${formatPercent(m.rate)} approved`}`
                  : '';
              }}
            />
            <Bar dataKey="approved" name="Approved" stackId="d" fill="#0f766e" isAnimationActive={false} />
            <Bar
              dataKey="rejected"
              name="Rejected"
              stackId="d"
              fill="#b91c1c"
              radius={[4, 4, 0, 0]}
              isAnimationActive={false}
            />
          </BarChart>
        </ResponsiveContainer>
      </div>
      <div className="sr-only">
        <table>
          <caption>Approval rate per month</caption>
          <thead>
            <tr>
              <th scope="col">Month</th>
              <th scope="col">Approved</th>
              <th scope="col">Rejected</th>
              <th scope="col">Rate</th>
            </tr>
          </thead>
          <tbody>
            {data.approval.byMonth.map((m) => (
              <tr key={m.month}>
                <th scope="row">{formatMonth(m.month)}</th>
                <td>{m.approved}</td>
                <td>{m.rejected}</td>
                <td>{m.rate === null ? 'No decisions' : formatPercent(m.rate)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
