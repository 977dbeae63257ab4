import { ScaffoldScreen } from '@/components/scaffold-screen';

export default function RegistrationManagementPage() {
  return (
    <ScaffoldScreen
      title="Registration Requests"
      summary="Review access requests from the public registration form."
      capabilities={[
        "Pending, approved and rejected requests",
        "Approve with final role, organization and department (creates the user with a temporary password)",
        "Reject with a reason",
      ]}
    />
  );
}
