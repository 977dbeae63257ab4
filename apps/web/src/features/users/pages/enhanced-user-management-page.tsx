import { ScaffoldScreen } from '@/components/scaffold-screen';

export default function EnhancedUserManagementPage() {
  return (
    <ScaffoldScreen
      title="Enhanced User Management"
      summary="Bulk user operations and user detail."
      capabilities={[
        "Bulk import and export (CSV)",
        "Bulk activate, deactivate and role change",
        "User detail with sessions, activity and audit",
      ]}
    />
  );
}
