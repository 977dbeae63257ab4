import { ScaffoldScreen } from '@/components/scaffold-screen';

export default function SmartApprovalRoutingPage() {
  return (
    <ScaffoldScreen
      title="Smart Approval Routing"
      summary="Shows the route the engine chose for any request, and why."
      capabilities={[
        "Auto-approval rules for low-risk requests",
        "Out-of-office delegation with date ranges",
        "Balancing among \"any one of\" approvers by queue length",
        "Predicted time to decision from history",
      ]}
    />
  );
}
