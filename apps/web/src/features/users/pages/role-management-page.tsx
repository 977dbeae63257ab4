import { ScaffoldScreen } from '@/components/scaffold-screen';

export default function RoleManagementPage() {
  return (
    <ScaffoldScreen
      title="Role Management"
      summary="System roles, their permissions and who holds each."
      capabilities={[
        "Permissions per role",
        "Members of each role",
        "Change roles (requires recent password confirmation)",
      ]}
    />
  );
}
