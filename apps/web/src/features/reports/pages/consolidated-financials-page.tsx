import { ScaffoldScreen } from '@/components/scaffold-screen';

export default function ConsolidatedFinancialsPage() {
  return (
    <ScaffoldScreen
      title="Consolidated Financials"
      summary="Group view of spend and payroll per subsidiary per period, in the group currency."
      capabilities={[
        "Translation at the period's average rate (rates editable)",
        "Intercompany requests eliminated and shown separately",
        "Drill-down and export",
      ]}
    />
  );
}
