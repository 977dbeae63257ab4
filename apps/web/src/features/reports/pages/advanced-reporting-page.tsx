import { ScaffoldScreen } from '@/components/scaffold-screen';

export default function AdvancedReportingPage() {
  return (
    <ScaffoldScreen
      title="Advanced Reporting"
      summary="A report builder with dimensions, measures, filters, charts and tables."
      capabilities={[
        "Dimensions: organization, department, category, vendor, requester, month, status",
        "Measures: sum, count, average",
        "Save, share and schedule reports",
        "Export CSV, XLSX and PDF",
      ]}
    />
  );
}
