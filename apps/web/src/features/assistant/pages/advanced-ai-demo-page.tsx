import { ScaffoldScreen } from '@/components/scaffold-screen';

export default function AdvancedAiDemoPage() {
  return (
    <ScaffoldScreen
      title="Advanced AI Demo"
      summary="A guided tour that runs each AI feature on sample inputs."
      capabilities={[
        "Copilot, search, receipt reading and voice parsing",
        "Smart form, smart analytics, predictive budgeting and routing",
      ]}
    />
  );
}
