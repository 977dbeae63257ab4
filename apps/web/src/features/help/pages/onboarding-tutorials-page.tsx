import { ScaffoldScreen } from '@/components/scaffold-screen';

export default function OnboardingTutorialsPage() {
  return (
    <ScaffoldScreen
      title="Onboarding Tutorials"
      summary="A role-based checklist that completes itself from real events."
      capabilities={[
        "\"Submit your first request\", \"Set up two-factor\", \"Approve a request\" and more",
        "Progress per user",
      ]}
    />
  );
}
