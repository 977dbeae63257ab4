import { ScaffoldScreen } from '@/components/scaffold-screen';

export default function MyRequestsPage() {
  return (
    <ScaffoldScreen
      title="My Requests"
      summary="Your requests with their status, current approver and age."
      capabilities={[
        "Detail view with approval timeline, comments, attachments, policy findings and audit trail",
        "Edit and submit drafts, cancel pending requests",
        "Answer \"information requested\" and resubmit",
      ]}
    />
  );
}
