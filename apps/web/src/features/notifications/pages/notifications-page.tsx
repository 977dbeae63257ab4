import { ScaffoldScreen } from '@/components/scaffold-screen';

export default function NotificationsPage() {
  return (
    <ScaffoldScreen
      title="Notifications"
      summary="Your notifications about requests, budgets, payroll and sign-ins."
      capabilities={[
        "Submitted, approved, rejected, information requested and comments",
        "Budget thresholds, payroll to approve, registrations, new-device sign-ins",
        "Mark read and mark all read",
      ]}
    />
  );
}
