import type { DashboardResponse } from '@outlay/contracts/dashboard';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { formatMoney } from '@/lib/format';

export function CategoryCard({
  items,
  currency,
}: {
  items: DashboardResponse['byCategory'] & object;
  currency: string;
}) {
  const max = Math.max(...items.map((i) => Number(i.amount)), 0);
  return (
    <Card data-testid="category-card">
      <CardHeader>
        <CardTitle>Top categories this month</CardTitle>
        <CardDescription>Approved and paid, {currency}</CardDescription>
      </CardHeader>
      <CardContent>
        {items.length === 0 ? (
          <p className="text-sm text-muted-foreground">Nothing approved yet this month.</p>
        ) : (
          <ul className="flex flex-col gap-3">
            {items.map((c) => (
              <li key={c.categoryId ?? 'none'} className="flex flex-col gap-1 text-sm">
                <div className="flex justify-between gap-2">
                  <span className="truncate">{c.name}</span>
                  <span className="tabular-nums">{formatMoney(c.amount, currency)}</span>
                </div>
                <div className="h-2 rounded-full bg-slate-100" aria-hidden="true">
                  <div
                    className="h-2 rounded-full bg-blue-600"
                    style={{ width: `${max ? (Number(c.amount) / max) * 100 : 0}%` }}
                  />
                </div>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
