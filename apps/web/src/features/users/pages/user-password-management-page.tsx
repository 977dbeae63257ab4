import { ScaffoldScreen } from '@/components/scaffold-screen';

export default function UserPasswordManagementPage() {
  return (
    <ScaffoldScreen
      title="User Password Management"
      summary="Reset passwords and see password and 2FA status."
      capabilities={[
        "Reset a user's password to a temporary one (shown once)",
        "Force a change at next login",
        "Password age and 2FA status",
      ]}
    />
  );
}
