import { ScaffoldScreen } from '@/components/scaffold-screen';

export default function DepartmentManagementPage() {
  return (
    <ScaffoldScreen
      title="Department Management"
      summary="Departments per organization."
      capabilities={[
        "Name and cost center code",
        "Department head",
        "Parent department",
      ]}
    />
  );
}
