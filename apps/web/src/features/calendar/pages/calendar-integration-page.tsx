import { PageHeader } from '@/components/page-header';
import { ImportCard } from '../components/import-card';
import { SubscribeCard } from '../components/subscribe-card';
import { UpcomingCard } from '../components/upcoming-card';

export default function CalendarIntegrationPage() {
  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="Calendar Integration"
        description="Your approval, payroll and budget dates in your calendar, and events from it as draft requests."
        className="mb-0"
      />
      <div className="grid gap-6 lg:grid-cols-2">
        <SubscribeCard />
        <UpcomingCard />
      </div>
      <ImportCard />
    </div>
  );
}
