import { ScaffoldScreen } from '@/components/scaffold-screen';

export default function AdvancedRequestPage() {
  return (
    <ScaffoldScreen
      title="Advanced Request"
      summary="A request with line items, cost allocation, foreign currency and recurrence."
      capabilities={[
        "Line items, each with category, amount and tax",
        "Cost allocation across departments by percent (must sum to 100)",
        "Foreign currency with the FX rate applied; advance or reimbursement",
        "Recurring requests (monthly or quarterly, with an end date) and multiple attachments",
      ]}
    />
  );
}
