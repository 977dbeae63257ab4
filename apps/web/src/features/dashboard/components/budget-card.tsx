import type { DashboardKpis } from '@outlay/contracts/dashboard';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { formatMoney, formatPercent } from '@/lib/format';
import { cn } from '@/lib/utils';

export function BudgetCard({ kpis }: { kpis: DashboardKpis }) {
  const lines = kpis.budget.lines;
  return (
    <Card data-testid="budget-card">
      <CardHeader>
        <CardTitle>Budget lines in force</CardTitle>
        <CardDescription>Committed and actual against each line, highest use first</CardDescription>
      </CardHeader>
      <CardContent>
        {lines.length === 0 ? (
          <p className="text-sm text-muted-foreground">No budget line covers today in {kpis.scopeLabel}.</p>
        ) : (
          <ul className="flex flex-col gap-3">
            {lines.map((l) => {
              const pct = Number(l.percent);
              return (
                <li key={l.id} className="flex flex-col gap-1 text-sm">
                  <div className="flex justify-between gap-2">
                    <span className="truncate">{l.label}</span>
                    <span className="tabular-nums">{formatPercent(l.percent, 2)}</span>
                  </div>
                  <div className="h-2 rounded-full bg-slate-100" aria-hidden="true">
                    <div
                      className={cn(
                        'h-2 rounded-full',
                        pct >= 100 ? 'bg-red-600' : pct >= 80 ? 'bg-amber-500' : 'bg-emerald-600',
                      )}
                      style={{ width: `${Math.min(pct, 100)}%` }}
                    />
                  </div>
                  <span className="text-xs text-muted-foreground">
                    {formatMoney(l.consumed, l.currency)} of {formatMoney(l.amount, l.currency)}
                  </span>
                </li>
              );
            })}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
