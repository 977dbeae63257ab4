import { ScaffoldScreen } from '@/components/scaffold-screen';

export default function OrganizationManagementPage() {
  return (
    <ScaffoldScreen
      title="Organization Management"
      summary="The group and its subsidiaries."
      capabilities={[
        "Name, code and base currency",
        "Address and tax id",
        "Fiscal year start and active flag",
      ]}
    />
  );
}
