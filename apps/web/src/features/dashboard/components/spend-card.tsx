import type { DashboardResponse } from '@outlay/contracts/dashboard';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { SpendChart } from '@/components/charts/spend-chart';

export function SpendCard({
  data,
  currency,
}: {
  data: NonNullable<DashboardResponse['spendByMonth']>;
  currency: string;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Spend by month</CardTitle>
        <CardDescription>Approved and paid requests by decision month, last 12 months, {currency}</CardDescription>
      </CardHeader>
      <CardContent>
        <SpendChart data={data} currency={currency} title="Spend by month" />
      </CardContent>
    </Card>
  );
}
