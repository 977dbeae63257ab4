import { ScaffoldScreen } from '@/components/scaffold-screen';

export default function ApprovalsPage() {
  return (
    <ScaffoldScreen
      title="Approvals"
      summary="Your approval queue: requests waiting at a step where you (or someone who delegated to you) approve."
      capabilities={[
        "Approve, reject with a reason, or request information",
        "Bulk approve",
        "Amount, requester, policy findings, budget impact and history on each item",
        "Exactly-once decisions, even when two approvers click at the same moment",
      ]}
    />
  );
}
