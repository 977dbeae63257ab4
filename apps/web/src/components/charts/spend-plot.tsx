import {
  Bar,
  BarChart,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { formatCompact, formatMoney } from '@/lib/format';

export interface SpendPlotRow {
  label: string;
  approved: number;
  paid: number;
  budget: number | null;
}

/** The drawing of SpendChart: approved vs paid per month as stacked bars, the budget as a line. */
export default function SpendPlot({
  rows,
  currency,
  showBudget,
}: {
  rows: SpendPlotRow[];
  currency: string;
  showBudget: boolean;
}) {
  const Chart = showBudget ? ComposedChart : BarChart;
  return (
    <ResponsiveContainer width="100%" height="100%">
      <Chart data={rows} margin={{ top: 8, right: 8, bottom: 0, left: 0 }} accessibilityLayer={false}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e2e8f0" />
        <XAxis
          dataKey="label"
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
          tickFormatter={(v: number) => formatCompact(v, currency)}
        />
        <Tooltip formatter={(v) => formatMoney(typeof v === 'number' ? v : String(v), currency)} />
        <Legend wrapperStyle={{ fontSize: 12 }} />
        <Bar
          dataKey="paid"
          name="Paid"
          stackId="spend"
          fill="#1d4ed8"
          radius={[0, 0, 0, 0]}
          isAnimationActive={false}
        />
        <Bar
          dataKey="approved"
          name="Approved, not yet paid"
          stackId="spend"
          fill="#60a5fa"
          radius={[4, 4, 0, 0]}
          isAnimationActive={false}
        />
        {showBudget ? (
          <Line
            dataKey="budget"
            name="Budget"
            type="monotone"
            stroke="#b45309"
            strokeWidth={2}
            dot={false}
            connectNulls
            isAnimationActive={false}
          />
        ) : null}
      </Chart>
    </ResponsiveContainer>
  );
}
