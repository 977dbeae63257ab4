import { ScaffoldScreen } from '@/components/scaffold-screen';

export default function VoiceToExpensePage() {
  return (
    <ScaffoldScreen
      title="Voice to Expense"
      summary="Speak or type a sentence and get a draft request."
      capabilities={[
        "Browser speech recognition where available",
        "Amount, currency, date, category and vendor parsed into a draft to review",
      ]}
    />
  );
}
