import { ScaffoldScreen } from '@/components/scaffold-screen';

export default function RequestsManagementPage() {
  return (
    <ScaffoldScreen
      title="Requests Management"
      summary="Every request in your scope, with rich filters, bulk export and payment recording."
      capabilities={[
        "Filter by organization, department, category, vendor, status, date, amount range, over budget or with violations",
        "Bulk export",
        "Mark approved requests paid with payment date and reference",
        "Reassign requests",
      ]}
    />
  );
}
