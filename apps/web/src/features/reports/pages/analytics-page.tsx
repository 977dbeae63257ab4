import { ScaffoldScreen } from '@/components/scaffold-screen';

export default function AnalyticsPage() {
  return (
    <ScaffoldScreen
      title="Analytics"
      summary="Spend trends and approval performance per organization and for the group."
      capabilities={[
        "Top categories, vendors and departments",
        "Approval rates and cycle times",
        "Charts with filters",
      ]}
    />
  );
}
