import { ScaffoldScreen } from '@/components/scaffold-screen';

export default function WorkflowCustomizationPage() {
  return (
    <ScaffoldScreen
      title="Workflow Builder"
      summary="Approval workflows per organization: match conditions and ordered steps."
      capabilities={[
        "Conditions on amount range, category, department, over budget and requester role",
        "Steps resolved to a relative role or a named user, \"any one of\" or \"all of\"",
        "SLA in hours with escalation; reorder steps by drag and drop",
        "Validate and simulate a sample request; nobody approves their own request",
      ]}
    />
  );
}
