import { ScaffoldScreen } from '@/components/scaffold-screen';

export default function BudgetOverrunApprovalsPage() {
  return (
    <ScaffoldScreen
      title="Budget Overrun Approvals"
      summary="Requests that would push a budget line past its limit, for CFO decision."
      capabilities={[
        "Approve the overrun with a required note",
        "Or reject the request",
        "Committed and actual spend shown for the budget line",
      ]}
    />
  );
}
