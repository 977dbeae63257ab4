import { ScaffoldScreen } from '@/components/scaffold-screen';

export default function BudgetManagementPage() {
  return (
    <ScaffoldScreen
      title="Budget Management"
      summary="Budget lines per organization, department and category, per period and currency."
      capabilities={[
        "Month, quarter or fiscal-year periods",
        "Copy from last period; import from CSV or XLSX",
        "Alert thresholds (80% and 100% by default) that notify owners",
      ]}
    />
  );
}
