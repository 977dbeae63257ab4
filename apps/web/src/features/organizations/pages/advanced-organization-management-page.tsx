import { ScaffoldScreen } from '@/components/scaffold-screen';

export default function AdvancedOrganizationManagementPage() {
  return (
    <ScaffoldScreen
      title="Advanced Organization Management"
      summary="The group hierarchy as a tree, with per-organization settings."
      capabilities={[
        "Move a subsidiary in the tree",
        "Approval thresholds and default workflow per organization",
        "Intercompany links and FX rates",
      ]}
    />
  );
}
