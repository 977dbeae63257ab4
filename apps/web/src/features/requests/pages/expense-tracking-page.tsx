import { useState } from 'react';
import { Paperclip } from 'lucide-react';
import { EXPENSE_SCOPE_LABELS, type ExpenseScope } from '@outlay/contracts/dashboard';
import { CardList, ListCard } from '@/components/data-table';
import { PageHeader } from '@/components/page-header';
import { QueryState } from '@/components/query-state';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { formatMoney, plural } from '@/lib/format';
import { useExpenseTracking } from '@/features/dashboard';
import { monthLabel, SpendChart } from '@/components/charts/spend-chart';

function thisMonth(): string {
  return new Date().toISOString().slice(0, 7);
}

function shift(month: string, n: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const i = y * 12 + (m - 1) + n;
  return `${Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`;
}

/** /expense-tracking: approved and paid spend by month for me, my department or (finance) wider, with receipts and budget. */
export default function ExpenseTrackingPage() {
  const [scope, setScope] = useState<ExpenseScope>('me');
  const [to, setTo] = useState(thisMonth());
  const [from, setFrom] = useState(shift(thisMonth(), -11));
  const valid = /^\d{4}-\d{2}$/.test(from) && /^\d{4}-\d{2}$/.test(to) && from <= to;
  const query = useExpenseTracking({ scope, from: valid ? from : undefined, to: valid ? to : undefined });
  const data = query.data;
  const scopes = data?.availableScopes ?? ['me'];

  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-6">
      <PageHeader
        title="Expense Tracking"
        description="Approved and paid spend over time, receipts, and spend against budget."
      />

      <Card>
        <CardContent className="flex flex-col gap-4 p-4 sm:flex-row sm:items-end">
          <div className="flex flex-col gap-1.5 sm:w-56">
            <Label htmlFor="expense-scope">Whose spend</Label>
            <Select value={scope} onValueChange={(v) => setScope(v as ExpenseScope)}>
              <SelectTrigger id="expense-scope" aria-label="Whose spend">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {scopes.map((s) => (
                  <SelectItem key={s} value={s}>
                    {EXPENSE_SCOPE_LABELS[s]}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="expense-from">From month</Label>
            <Input id="expense-from" type="month" value={from} max={to} onChange={(e) => setFrom(e.target.value)} />
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="expense-to">To month</Label>
            <Input id="expense-to" type="month" value={to} min={from} onChange={(e) => setTo(e.target.value)} />
          </div>
          {!valid ? <p className="text-sm text-red-700">The first month must not be after the last.</p> : null}
        </CardContent>
      </Card>

      <QueryState query={query} loadingLabel="Loading spend" errorMessage="Could not load the spend.">
        {(data) => (
          <div className="flex flex-col gap-6" aria-busy={query.isFetching ? 'true' : undefined}>
            <section aria-label="Totals" className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
              <Figure
                label="Approved and paid"
                value={formatMoney(data.totals.total, data.currency)}
                detail={`${data.totals.count} requests · ${data.scopeLabel}`}
                testId="total"
              />
              <Figure
                label="Paid"
                value={formatMoney(data.totals.paid, data.currency)}
                detail="Money that left the bank"
                testId="paid"
              />
              <Figure
                label="Budget for the period"
                value={data.totals.budget ? formatMoney(data.totals.budget, data.currency) : 'No budget'}
                detail={
                  data.totals.budget
                    ? 'Budget lines of this scope, spread per month'
                    : 'No budget lines cover this scope'
                }
                testId="budget"
              />
              <Figure
                label="Without a receipt"
                value={String(data.receipts.withoutReceipt)}
                detail={`${formatMoney(data.receipts.amountWithoutReceipt, data.currency)} · ${data.receipts.withReceipt} with a receipt`}
                testId="receipts"
                icon
              />
            </section>

            <Card>
              <CardHeader>
                <CardTitle>Approved vs paid per month</CardTitle>
                <CardDescription>
                  {data.scopeLabel}, {monthLabel(data.from)} – {monthLabel(data.to)}, {data.currency}
                  {data.totals.budget ? ', with the budget as a line' : ''}
                </CardDescription>
              </CardHeader>
              <CardContent>
                <SpendChart
                  data={data.months}
                  currency={data.currency}
                  title="Approved vs paid per month"
                  showBudget={data.totals.budget !== null}
                />
              </CardContent>
            </Card>

            <Card>
              <CardHeader>
                <CardTitle>By month</CardTitle>
              </CardHeader>
              <CardContent>
                {/* A phone gets a card per month: six columns of money do not fit its width. */}
                <CardList
                  items={[...data.months].reverse()}
                  label="Spend by month"
                  getKey={(m) => m.month}
                  testId="expense-cards"
                  renderCard={(m) => (
                    <ListCard
                      title={monthLabel(m.month)}
                      subtitle={
                        <>
                          <span className="block">
                            Paid {formatMoney(m.paid, data.currency)} · approved, not yet paid{' '}
                            {formatMoney(m.approved, data.currency)}
                          </span>
                          <span className="block">
                            {m.budget ? `Budget ${formatMoney(m.budget, data.currency)}` : 'No budget'}
                          </span>
                        </>
                      }
                      meta={plural(m.count, 'request')}
                      amount={formatMoney(m.total, data.currency)}
                      testId="expense-card"
                    />
                  )}
                />
                <table className="hidden w-full text-sm sm:table" data-testid="expense-table">
                  <thead>
                    <tr className="border-b text-left text-muted-foreground">
                      <th scope="col" className="py-2 pr-4 font-medium">
                        Month
                      </th>
                      <th scope="col" className="py-2 pr-4 text-right font-medium">
                        Requests
                      </th>
                      <th scope="col" className="py-2 pr-4 text-right font-medium">
                        Approved, not paid
                      </th>
                      <th scope="col" className="py-2 pr-4 text-right font-medium">
                        Paid
                      </th>
                      <th scope="col" className="py-2 pr-4 text-right font-medium">
                        Total
                      </th>
                      <th scope="col" className="py-2 text-right font-medium">
                        Budget
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {[...data.months].reverse().map((m) => (
                      <tr key={m.month} className="border-b last:border-0">
                        <th scope="row" className="py-2 pr-4 text-left font-medium">
                          {monthLabel(m.month)}
                        </th>
                        <td className="py-2 pr-4 text-right tabular-nums">{m.count}</td>
                        <td className="py-2 pr-4 text-right tabular-nums">{formatMoney(m.approved, data.currency)}</td>
                        <td className="py-2 pr-4 text-right tabular-nums">{formatMoney(m.paid, data.currency)}</td>
                        <td className="py-2 pr-4 text-right font-medium tabular-nums">
                          {formatMoney(m.total, data.currency)}
                        </td>
                        <td className="py-2 text-right tabular-nums">
                          {m.budget ? formatMoney(m.budget, data.currency) : '—'}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </CardContent>
            </Card>
          </div>
        )}
      </QueryState>
    </div>
  );
}

function Figure({
  label,
  value,
  detail,
  testId,
  icon,
}: {
  label: string;
  value: string;
  detail: string;
  testId: string;
  icon?: boolean;
}) {
  return (
    <Card data-testid={`figure-${testId}`}>
      <CardContent className="flex flex-col gap-1 p-4">
        <h2 className="flex items-center gap-1 text-sm font-medium text-muted-foreground">
          {icon ? <Paperclip className="size-4" aria-hidden="true" /> : null}
          {label}
        </h2>
        <p className="text-xl font-semibold tabular-nums sm:text-2xl">{value}</p>
        <p className="text-xs text-muted-foreground">{detail}</p>
      </CardContent>
    </Card>
  );
}
