import { ScaffoldScreen } from '@/components/scaffold-screen';

export default function ExpenseCoachingPage() {
  return (
    <ScaffoldScreen
      title="Expense Coaching"
      summary="Personal insights on your spending and policy findings."
      capabilities={[
        "Your policy findings over time and returned requests",
        "Your spend compared with your department's median",
        "Concrete tips",
      ]}
    />
  );
}
