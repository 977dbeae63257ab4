import { ScaffoldScreen } from '@/components/scaffold-screen';

export default function CategoryManagementPage() {
  return (
    <ScaffoldScreen
      title="Category Management"
      summary="Expense categories and their accounting."
      capabilities={[
        "Name, code, GL account and parent",
        "Per-request limit",
        "Receipt-required threshold and active flag",
      ]}
    />
  );
}
