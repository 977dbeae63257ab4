import { ScaffoldScreen } from '@/components/scaffold-screen';

export default function AiSearchPage() {
  return (
    <ScaffoldScreen
      title="AI Search"
      summary="One box across requests, vendors, users, budgets, policies and tutorials."
      capabilities={[
        "Typo-tolerant, ranked results",
        "Filters in plain words (\"travel over 500 last month in Logistics\")",
      ]}
    />
  );
}
