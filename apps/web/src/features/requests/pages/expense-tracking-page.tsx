import { ScaffoldScreen } from '@/components/scaffold-screen';

export default function ExpenseTrackingPage() {
  return (
    <ScaffoldScreen
      title="Expense Tracking"
      summary="Spend over time for you, your department, or (finance) any scope."
      capabilities={[
        "Approved and paid amounts by month",
        "Receipt status",
        "Spend against budget",
      ]}
    />
  );
}
