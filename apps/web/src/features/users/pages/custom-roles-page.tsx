import { ScaffoldScreen } from '@/components/scaffold-screen';

export default function CustomRolesPage() {
  return (
    <ScaffoldScreen
      title="Custom Roles"
      summary="Define roles as sets of permissions with a scope."
      capabilities={[
        "Permissions from the catalogue",
        "Scope: own department, own organization or group",
        "Assign to users; enforced by the server",
      ]}
    />
  );
}
