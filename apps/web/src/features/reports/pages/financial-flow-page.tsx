import { ScaffoldScreen } from '@/components/scaffold-screen';

export default function FinancialFlowPage() {
  return (
    <ScaffoldScreen
      title="Financial Flow"
      summary="Where the money goes: organization to department to category to vendor."
      capabilities={[
        "Flow (Sankey) diagram for a period",
        "Amounts on every link",
        "Filters",
      ]}
    />
  );
}
