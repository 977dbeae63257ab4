import { ScaffoldScreen } from '@/components/scaffold-screen';

export default function BudgetVsActualPage() {
  return (
    <ScaffoldScreen
      title="Budget vs Actual"
      summary="Budget, committed, actual, remaining and variance for a period and scope."
      capabilities={[
        "Percent used per budget line",
        "Chart with drill-down to the requests",
        "Payroll cost included under the Payroll category",
      ]}
    />
  );
}
