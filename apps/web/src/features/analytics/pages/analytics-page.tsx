import { useState } from 'react';
import { PageHeader } from '@/components/page-header';
import { QueryState } from '@/components/query-state';
import { defaultPeriod, ReportFilters, type ReportFilterValues } from '@/components/report-filters';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { formatMonth } from '@/lib/format';
import { useBudgetOptions } from '@/features/budgets';
import { useAnalytics } from '../api/get-analytics';
import { ApprovalChart, SpendTrendChart } from '../components/analytics-charts';
import { AnalyticsKpis } from '../components/analytics-kpis';
import { CycleTables, TopTable } from '../components/analytics-tables';

/** /analytics: spend trend, top lists, approval rates and cycle times for one organization or the group. */
export default function AnalyticsPage() {
  const options = useBudgetOptions();
  const [filters, setFilters] = useState<ReportFilterValues>(() => defaultPeriod());
  const analytics = useAnalytics(filters);

  return (
    <div className="flex min-w-0 flex-col gap-4">
      <PageHeader
        title="Analytics"
        description="Spend trends, where the money goes, how often requests are approved and how long decisions take: for one organization or the group, in the group currency."
      />
      <ReportFilters idPrefix="analytics" value={filters} options={options.data} onChange={setFilters} />
      <QueryState
        query={analytics}
        loadingLabel="Loading analytics"
        errorMessage="Could not load the analytics."
        className="min-h-64"
      >
        {(data) => (
          <>
            <p className="text-sm text-muted-foreground" data-testid="analytics-scope">
              {data.scopeLabel} · {formatMonth(data.from)} – {formatMonth(data.to)} · amounts in {data.currency}
            </p>
            <AnalyticsKpis data={data} />
            <div className="grid min-w-0 gap-4 lg:grid-cols-2">
              <Card className="min-w-0">
                <CardHeader>
                  <CardTitle>Spend per month</CardTitle>
                </CardHeader>
                <CardContent>
                  <SpendTrendChart data={data} />
                </CardContent>
              </Card>
              <Card className="min-w-0">
                <CardHeader>
                  <CardTitle>Decisions per month</CardTitle>
                </CardHeader>
                <CardContent>
                  <ApprovalChart data={data} />
                </CardContent>
              </Card>
            </div>
            <div className="grid min-w-0 gap-4 lg:grid-cols-3">
              {(
                [
                  ['Top categories', data.topCategories],
                  ['Top vendors', data.topVendors],
                  ['Top departments', data.topDepartments],
                ] as const
              ).map(([title, items]) => (
                <Card key={title} className="min-w-0">
                  <CardHeader>
                    <CardTitle>{title}</CardTitle>
                  </CardHeader>
                  <CardContent>
                    <TopTable
                      caption={`${title} by spend in ${data.currency}`}
                      items={[...items]}
                      currency={data.currency}
                    />
                  </CardContent>
                </Card>
              ))}
            </div>
            <Card className="min-w-0">
              <CardHeader>
                <CardTitle>Approval cycle time</CardTitle>
                <p className="text-sm text-muted-foreground">
                  Median and 90th percentile, in hours, of the decisions made in the period.
                </p>
              </CardHeader>
              <CardContent>
                <CycleTables data={data} />
              </CardContent>
            </Card>
          </>
        )}
      </QueryState>
    </div>
  );
}
