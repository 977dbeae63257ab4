import { ScaffoldScreen } from '@/components/scaffold-screen';

export default function ErrorReportsPage() {
  return (
    <ScaffoldScreen
      title="Error Reports"
      summary="Uncaught errors and render failures reported by the web app."
      capabilities={[
        "Grouped by fingerprint with counts, first and last seen",
        "User, route and browser",
        "Mark resolved",
      ]}
    />
  );
}
