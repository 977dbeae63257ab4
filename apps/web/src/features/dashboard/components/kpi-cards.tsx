import { AlertTriangle, ArrowDownRight, ArrowUpRight, Clock, Gauge, Minus, Timer, Wallet } from 'lucide-react';
import type { ReactNode } from 'react';
import type { DashboardKpis } from '@outlay/contracts/dashboard';
import { Card, CardContent } from '@/components/ui/card';
import { formatMoney, formatMoneyOf, formatNumber, formatPercent, plural } from '@/lib/format';
import { cn } from '@/lib/utils';

function KpiCard({
  title,
  value,
  detail,
  icon,
  testId,
}: {
  title: string;
  value: ReactNode;
  detail?: ReactNode;
  icon: ReactNode;
  testId: string;
}) {
  return (
    <Card data-testid={testId}>
      <CardContent className="flex flex-col gap-1 p-4">
        <div className="flex items-center justify-between gap-2 text-sm text-muted-foreground">
          <h2 className="font-medium">{title}</h2>
          <span className="text-blue-700" aria-hidden="true">
            {icon}
          </span>
        </div>
        <p className="text-xl font-semibold tabular-nums sm:text-2xl" data-testid={`${testId}-value`}>
          {value}
        </p>
        {detail ? <div className="text-xs text-muted-foreground">{detail}</div> : null}
      </CardContent>
    </Card>
  );
}

function Trend({ percent }: { percent: string | null }) {
  if (percent === null) return <span>No spend on the same days last month to compare</span>;
  const n = Number(percent);
  const Icon = n > 0 ? ArrowUpRight : n < 0 ? ArrowDownRight : Minus;
  const words =
    n > 0 ? `up ${formatPercent(percent)}` : n < 0 ? `down ${formatPercent(percent.replace('-', ''))}` : 'unchanged';
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1 font-medium',
        n > 0 ? 'text-amber-800' : n < 0 ? 'text-emerald-800' : 'text-slate-700',
      )}
    >
      <Icon className="size-3.5" aria-hidden="true" />
      {words} on the same days last month
    </span>
  );
}

export function KpiCards({ kpis, currency }: { kpis: DashboardKpis; currency: string }) {
  return (
    <section aria-label="Key figures" className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-5">
      <KpiCard
        testId="kpi-spend"
        title="Spend this month"
        icon={<Wallet className="size-4" />}
        value={formatMoney(kpis.spendThisMonth, currency)}
        detail={
          <div className="flex flex-col">
            <Trend percent={kpis.spendChangePercent} />
            <span>
              {kpis.comparedDays === 1 ? 'Day 1' : `Days 1–${kpis.comparedDays}`} of last month{' '}
              {formatMoney(kpis.spendLastMonthToDate, currency)} · all of it{' '}
              {formatMoney(kpis.spendLastMonth, currency)}
            </span>
          </div>
        }
      />
      <KpiCard
        testId="kpi-pending"
        title="Pending value"
        icon={<Clock className="size-4" />}
        value={formatMoney(kpis.pendingValue, currency)}
        detail={`${plural(kpis.pendingCount, 'request')} awaiting a decision`}
      />
      <KpiCard
        testId="kpi-budget"
        title="Budget burn"
        icon={<Gauge className="size-4" />}
        value={kpis.budget.percent === null ? 'No budget' : formatPercent(kpis.budget.percent)}
        detail={
          kpis.budget.linesInForce === 0 || kpis.budget.periodType === null
            ? 'No budget lines in force today'
            : // The total adds one granularity's lines only (the coarsest in force), so it never counts money twice.
              `${formatMoneyOf(kpis.budget.consumed, kpis.budget.amount, currency)} · ${plural(kpis.budget.countedLines, `${kpis.budget.periodType} line`)}` +
              (kpis.budget.linesInForce > kpis.budget.countedLines
                ? ` (${formatNumber(kpis.budget.linesInForce, 0)} in force)`
                : '')
        }
      />
      <KpiCard
        testId="kpi-overruns"
        title="Overruns pending"
        icon={<AlertTriangle className="size-4" />}
        value={kpis.overrunsPending}
        detail="Requests over budget awaiting finance"
      />
      <KpiCard
        testId="kpi-cycle"
        title="Approval cycle time"
        icon={<Timer className="size-4" />}
        value={kpis.avgCycleHours === null ? '—' : formatHours(kpis.avgCycleHours)}
        detail={
          kpis.cycleSample
            ? `Submission to decision, ${kpis.cycleSample} decisions in 30 days`
            : 'No decisions in the last 30 days'
        }
      />
    </section>
  );
}

function formatHours(hours: string): string {
  const h = Number(hours);
  if (h < 48) return `${hours} h`;
  return `${formatNumber(h / 24, 1)} days`;
}
