import { ScaffoldScreen } from '@/components/scaffold-screen';

export default function PredictiveBudgetingPage() {
  return (
    <ScaffoldScreen
      title="Predictive Budgeting"
      summary="Forecast of each budget line to the end of its period from monthly history."
      capabilities={[
        "Seasonal model with a confidence band",
        "Predicted overrun date",
        "Suggested budget for the next period",
      ]}
    />
  );
}
