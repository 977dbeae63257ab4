import { CalendarClock } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import { CALENDAR_EVENT_KIND_LABELS, type CalendarEvent } from '@outlay/contracts/calendar';
import { QueryState } from '@/components/query-state';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { formatDate, formatDateTime, plural } from '@/lib/format';
import { useUpcoming } from '../api/list-upcoming-events';

const KIND_VARIANT: Record<CalendarEvent['kind'], 'danger' | 'purple' | 'primary' | 'success'> = {
  approval: 'danger',
  payroll: 'purple',
  budget: 'primary',
  request: 'success',
};

/** A busy month is shown a screenful at a time. */
const FIRST = 12;

/** The next 30 days of the feed, read from the same data the calendar apps get. */
export function UpcomingCard() {
  const upcoming = useUpcoming();
  const [all, setAll] = useState(false);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Next 30 days</CardTitle>
        <CardDescription>What your calendar link shows for the coming month.</CardDescription>
      </CardHeader>
      <CardContent>
        <QueryState
          query={upcoming}
          loadingLabel="Loading your dates"
          errorMessage="Could not load your upcoming dates."
        >
          {(events) =>
            events.length === 0 ? (
              <p className="flex items-center gap-2 text-sm text-muted-foreground" data-testid="upcoming-empty">
                <CalendarClock className="size-4" aria-hidden="true" />
                Nothing due in the next 30 days.
              </p>
            ) : (
              <>
                <ul className="flex flex-col divide-y" data-testid="upcoming-events">
                  {(all ? events : events.slice(0, FIRST)).map((e) => (
                    <li key={e.uid} className="flex flex-col gap-1 py-2 sm:flex-row sm:items-center sm:gap-3">
                      <span className="w-40 shrink-0 text-sm tabular-nums text-muted-foreground">
                        {e.allDay ? formatDate(e.start) : formatDateTime(e.start)}
                      </span>
                      <Badge variant={KIND_VARIANT[e.kind]} className="self-start sm:self-auto">
                        {CALENDAR_EVENT_KIND_LABELS[e.kind]}
                      </Badge>
                      <Link to={e.path} className="min-w-0 break-words text-sm font-medium hover:underline">
                        {e.title}
                      </Link>
                    </li>
                  ))}
                </ul>
                {!all && events.length > FIRST && (
                  <Button variant="link" className="self-start px-0" onClick={() => setAll(true)}>
                    Show all {plural(events.length, 'date')}
                  </Button>
                )}
              </>
            )
          }
        </QueryState>
      </CardContent>
    </Card>
  );
}
