import type { ReactNode } from 'react';
import type { AnalyticsResponse } from '@outlay/contracts/analytics';
import { Card, CardContent } from '@/components/ui/card';
import { formatMoney, formatNumber, formatPercent, plural } from '@/lib/format';

function Tile({
  title,
  value,
  detail,
  testId,
}: {
  title: string;
  value: ReactNode;
  detail?: ReactNode;
  testId: string;
}) {
  return (
    <Card data-testid={testId}>
      <CardContent className="flex min-w-0 flex-col gap-1 p-4">
        <h2 className="text-sm font-medium text-muted-foreground">{title}</h2>
        <p className="text-xl font-semibold break-words tabular-nums sm:text-2xl" data-testid={`${testId}-value`}>
          {value}
        </p>
        {detail ? <div className="text-xs text-muted-foreground">{detail}</div> : null}
      </CardContent>
    </Card>
  );
}

export const hours = (h: string | null): string => (h === null ? '—' : `${formatNumber(h, 1)} h`);

export function AnalyticsKpis({ data }: { data: AnalyticsResponse }) {
  const a = data.approval.overall;
  const c = data.cycleTime.overall;
  return (
    <section aria-label="Key figures" className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
      <Tile
        testId="kpi-spend"
        title="Spend (approved and paid)"
        value={formatMoney(data.spend.total, data.currency)}
        detail={plural(data.spend.requestCount, 'request')}
      />
      <Tile
        testId="kpi-average"
        title="Average request"
        value={data.spend.averageRequest === null ? '—' : formatMoney(data.spend.averageRequest, data.currency)}
        detail="Spend divided by requests"
      />
      <Tile
        testId="kpi-approval"
        title="Approval rate"
        value={a.rate === null ? '—' : formatPercent(a.rate)}
        detail={`${plural(a.approved, 'approved', 'approved')} · ${plural(a.rejected, 'rejected', 'rejected')}`}
      />
      <Tile
        testId="kpi-cycle"
        title="Median cycle time"
        value={hours(c.medianHours)}
        detail={`90th percentile ${hours(c.p90Hours)} · ${plural(c.decisions, 'decision')}`}
      />
    </section>
  );
}
