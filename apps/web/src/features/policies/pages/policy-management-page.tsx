import { ScaffoldScreen } from '@/components/scaffold-screen';

export default function PolicyManagementPage() {
  return (
    <ScaffoldScreen
      title="Policy Management"
      summary="Expense rules and what happens when a request breaks them."
      capabilities={[
        "Per-category limits per request and per month",
        "Receipt required above an amount, blocked vendors, weekend spend, duplicate detection",
        "Actions: warn, require justification, block",
      ]}
    />
  );
}
