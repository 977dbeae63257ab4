import { PageHeader } from '@/components/page-header';
import { QueryState } from '@/components/query-state';
import { formatDate, formatNumber, formatPercent } from '@/lib/format';
import { useForecasts } from '../api/list-forecasts';
import { ForecastCard } from '../components/forecast-card';

/** /predictive-budgeting: every budget line in force forecast to the end of its period. */
export default function PredictiveBudgetingPage() {
  const forecasts = useForecasts();
  return (
    <div>
      <PageHeader
        title="Predictive Budgeting"
        description="Each budget line in force, forecast to the end of its period from the monthly history of what it counts: the likely total with a 95% band, the day it would pass its budget, and a budget to set for the next period."
      />
      <QueryState
        query={forecasts}
        loadingLabel="Forecasting the budget lines"
        errorMessage="Could not forecast the budget lines."
        className="h-48"
      >
        {(data) => (
          <div className="flex flex-col gap-4">
            <section aria-label="Backtest" className="rounded-lg border bg-muted/30 p-4 text-sm" data-testid="backtest">
              <p>
                <span className="font-semibold">
                  Backtest error (MAPE):{' '}
                  {data.backtest.mape === null ? 'not measurable yet' : formatPercent(data.backtest.mape.toFixed(1))}
                </span>
                {data.backtest.wape !== null && (
                  <> · weighted by spend (WAPE): {formatPercent(data.backtest.wape.toFixed(1))}</>
                )}
              </p>
              <p className="mt-1 text-muted-foreground">
                Each of the last {data.backtest.holdoutMonths} complete months of {formatNumber(data.backtest.series)}{' '}
                lines was forecast one month ahead from the months before it ({formatNumber(data.backtest.points)}{' '}
                forecasts). Months with a handful of requests swing widely, so percentage errors on small months are
                large; the weighted error says how far off the money was.
              </p>
            </section>
            <p className="text-sm text-muted-foreground">As of {formatDate(data.asOf)}.</p>
            {data.lines.length === 0 ? (
              <div className="rounded-lg border border-dashed p-8 text-center">
                <p className="font-medium">No budget line in force</p>
                <p className="mt-1 text-sm text-muted-foreground">
                  Lines set on Budget Management for the current period are forecast here.
                </p>
              </div>
            ) : (
              <div className="grid gap-4 xl:grid-cols-2">
                {data.lines.map((l) => (
                  <ForecastCard key={l.id} line={l} />
                ))}
              </div>
            )}
          </div>
        )}
      </QueryState>
    </div>
  );
}
