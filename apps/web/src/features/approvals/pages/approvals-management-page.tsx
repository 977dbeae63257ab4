import { ScaffoldScreen } from '@/components/scaffold-screen';

export default function ApprovalsManagementPage() {
  return (
    <ScaffoldScreen
      title="Approvals Management"
      summary="Every in-flight approval in your scope, with SLAs and cycle times."
      capabilities={[
        "Steps past their SLA",
        "Reassign an approver or escalate",
        "Approval cycle time per step and per approver",
      ]}
    />
  );
}
