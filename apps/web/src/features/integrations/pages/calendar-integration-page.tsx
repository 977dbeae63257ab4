import { ScaffoldScreen } from '@/components/scaffold-screen';

export default function CalendarIntegrationPage() {
  return (
    <ScaffoldScreen
      title="Calendar Integration"
      summary="Your approval, payroll and budget dates in your calendar."
      capabilities={[
        "A private iCalendar subscribe link",
        "Approval due dates, payroll dates and budget period ends",
        "Import an .ics file to create draft requests from events",
      ]}
    />
  );
}
