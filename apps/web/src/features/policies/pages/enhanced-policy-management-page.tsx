import { ScaffoldScreen } from '@/components/scaffold-screen';

export default function EnhancedPolicyManagementPage() {
  return (
    <ScaffoldScreen
      title="Enhanced Policy Management"
      summary="A rule builder with versions and simulation."
      capabilities={[
        "Conditions on any request field with AND/OR",
        "Priority and effective dates; versions",
        "Simulation against the last N months of requests",
      ]}
    />
  );
}
