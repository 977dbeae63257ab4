import { ScaffoldScreen } from '@/components/scaffold-screen';

export default function VendorAgingReportPage() {
  return (
    <ScaffoldScreen
      title="Vendor Aging Report"
      summary="Payables aged by days past due, per vendor, as of a chosen date."
      capabilities={[
        "Current, 1-30, 31-60, 61-90 and over 90 days",
        "Partial payments",
        "Totals in the group currency; export",
      ]}
    />
  );
}
