import { ScaffoldScreen } from '@/components/scaffold-screen';

export default function AuditHistoryPage() {
  return (
    <ScaffoldScreen
      title="Audit History"
      summary="Every change to money, access and settings."
      capabilities={[
        "Who, what, when, from where, before and after",
        "Append-only and hash-chained with a verify-integrity action",
        "Filters and export",
      ]}
    />
  );
}
