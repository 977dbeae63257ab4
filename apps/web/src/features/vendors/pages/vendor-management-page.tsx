import { ScaffoldScreen } from '@/components/scaffold-screen';

export default function VendorManagementPage() {
  return (
    <ScaffoldScreen
      title="Vendor Management"
      summary="The vendor master: who the group pays and on what terms."
      capabilities={[
        "Name, unique tax id, contact, address, payment terms and currency",
        "Masked bank details",
        "Status: pending verification, active or blocked (blocked vendors cannot be used)",
        "Spend to date",
      ]}
    />
  );
}
