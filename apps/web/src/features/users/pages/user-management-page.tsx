import { ScaffoldScreen } from '@/components/scaffold-screen';

export default function UserManagementPage() {
  return (
    <ScaffoldScreen
      title="User Management"
      summary="Create, edit, activate and deactivate users."
      capabilities={[
        "Organization, department, manager and role",
        "Status badges: active, pending, inactive",
      ]}
    />
  );
}
