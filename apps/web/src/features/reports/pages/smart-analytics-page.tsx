import { ScaffoldScreen } from '@/components/scaffold-screen';

export default function SmartAnalyticsPage() {
  return (
    <ScaffoldScreen
      title="Smart Analytics"
      summary="Findings linked to their requests: outliers, duplicates and split purchases."
      capabilities={[
        "Amount outliers within a category and likely duplicates",
        "Split purchases just under an approval threshold",
        "Unusual timing and Benford deviations",
        "Dismiss a finding or turn it into a policy",
      ]}
    />
  );
}
