import { useState } from 'react';
import { FORECAST_METHOD_LABELS, type ForecastLine } from '@outlay/contracts/forecasts';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { formatDate, formatMoney, formatMonth, formatPercent } from '@/lib/format';

/** One budget line: spent so far, the forecast with its band against the budget, the overrun day, the next budget. */
export function ForecastCard({ line }: { line: ForecastLine }) {
  const [open, setOpen] = useState(false);
  const budget = Number(line.budget);
  // Widths only: the figures people read are the exact strings.
  const scale = Math.max(budget, Number(line.high), 1);
  const pct = (v: string) => `${Math.min(100, (Number(v) / scale) * 100)}%`;
  const over = Number(line.forecastPercent) > 100;
  const titleId = `forecast-${line.id}`;
  return (
    <article
      aria-labelledby={titleId}
      data-testid="forecast"
      className="flex min-w-0 flex-col gap-3 rounded-lg border bg-card p-4 shadow-xs"
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h2 id={titleId} className="font-semibold break-words">
            {line.label}
          </h2>
          <p className="text-xs text-muted-foreground">
            {formatDate(line.periodStart)} – {formatDate(line.periodEnd)}
          </p>
        </div>
        {line.overrunDate ? (
          <Badge variant="danger">Over budget by {formatDate(line.overrunDate)}</Badge>
        ) : (
          <Badge variant="success">Within budget</Badge>
        )}
      </div>
      <div aria-hidden="true" className="relative h-3 rounded-full bg-slate-100">
        <div
          className="absolute inset-y-0 left-0 rounded-full bg-blue-200"
          style={{ left: pct(line.low), width: `calc(${pct(line.high)} - ${pct(line.low)})` }}
        />
        <div className="absolute inset-y-0 left-0 rounded-full bg-blue-700" style={{ width: pct(line.consumed) }} />
        <div className="absolute inset-y-[-3px] w-0.5 bg-amber-700" style={{ left: pct(line.budget) }} />
      </div>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm sm:grid-cols-4">
        <div>
          <dt className="text-xs text-muted-foreground">Budget</dt>
          <dd className="font-medium tabular-nums">{formatMoney(line.budget, line.currency)}</dd>
        </div>
        <div>
          <dt className="text-xs text-muted-foreground">Spent and committed</dt>
          <dd className="font-medium tabular-nums">{formatMoney(line.consumed, line.currency)}</dd>
        </div>
        <div>
          <dt className="text-xs text-muted-foreground">Forecast at period end</dt>
          <dd className={over ? 'font-semibold text-red-700 tabular-nums' : 'font-medium tabular-nums'}>
            {formatMoney(line.forecast, line.currency)} ({formatPercent(line.forecastPercent)})
          </dd>
        </div>
        <div>
          <dt className="text-xs text-muted-foreground">95% band</dt>
          <dd className="tabular-nums">
            {formatMoney(line.low, line.currency)} – {formatMoney(line.high, line.currency)}
          </dd>
        </div>
        <div className="col-span-2">
          <dt className="text-xs text-muted-foreground">Suggested budget for {line.nextPeriodLabel}</dt>
          <dd className="font-medium tabular-nums">
            {line.suggestedNextBudget ? formatMoney(line.suggestedNextBudget, line.currency) : 'Not enough history'}
          </dd>
        </div>
        <div className="col-span-2">
          <dt className="text-xs text-muted-foreground">Model</dt>
          <dd>
            {FORECAST_METHOD_LABELS[line.method]},{' '}
            {line.monthsOfHistory === 1 ? '1 month' : `${line.monthsOfHistory} months`} of history
          </dd>
        </div>
      </dl>
      <div>
        <Button
          variant="link"
          size="sm"
          className="h-auto px-0"
          aria-expanded={open}
          onClick={() => setOpen((v) => !v)}
        >
          {open ? 'Hide the months' : 'Show the months'}
        </Button>
        {open && (
          <div
            className="mt-2 overflow-x-auto rounded-md border"
            tabIndex={0}
            role="region"
            aria-label={`Months of ${line.label}`}
          >
            <table className="w-full text-sm">
              <thead className="bg-muted/50 text-left text-xs text-muted-foreground">
                <tr>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Month
                  </th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">
                    Amount
                  </th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">
                    Band
                  </th>
                </tr>
              </thead>
              <tbody>
                {line.months.map((m) => (
                  <tr key={m.month} className="border-t">
                    <td className="px-3 py-1.5">
                      {formatMonth(m.month)}
                      {m.projected ? ' (forecast)' : ''}
                    </td>
                    <td className="px-3 py-1.5 text-right tabular-nums">{formatMoney(m.amount, line.currency)}</td>
                    <td className="px-3 py-1.5 text-right tabular-nums">
                      {m.low && m.high
                        ? `${formatMoney(m.low, line.currency)} – ${formatMoney(m.high, line.currency)}`
                        : '—'}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
    </article>
  );
}
