import { ScaffoldScreen } from '@/components/scaffold-screen';

export default function FeatureSuggestionsPage() {
  return (
    <ScaffoldScreen
      title="Feature Suggestions"
      summary="Submit ideas, vote and comment."
      capabilities={[
        "One vote per user",
        "Comments",
        "Status set by admins: under review, planned, done, declined",
      ]}
    />
  );
}
