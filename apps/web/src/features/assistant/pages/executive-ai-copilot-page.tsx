import { ScaffoldScreen } from '@/components/scaffold-screen';

export default function ExecutiveAiCopilotPage() {
  return (
    <ScaffoldScreen
      title="AI Copilot"
      summary="Ask questions about the live data and get numbers, tables and links."
      capabilities={[
        "\"How much did Meridian Energy spend on travel last quarter?\"",
        "\"Top 5 vendors this year\", \"Which budgets are above 90%?\"",
        "\"What is waiting for my approval?\"",
        "Works offline and respects your permissions",
      ]}
    />
  );
}
