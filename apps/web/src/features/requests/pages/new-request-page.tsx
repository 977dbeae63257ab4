import { ScaffoldScreen } from '@/components/scaffold-screen';

export default function NewRequestPage() {
  return (
    <ScaffoldScreen
      title="New Request"
      summary="Raise a spending request for a purchase, a reimbursement or a vendor payment."
      capabilities={[
        "Title, description, amount and currency (your organization's by default)",
        "Category, department and an optional searchable vendor",
        "Date needed, justification and receipt or attachment upload (images, PDF)",
        "Save as draft or submit; the server runs policy and budget checks and shows the result",
      ]}
    />
  );
}
