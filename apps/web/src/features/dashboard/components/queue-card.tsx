import type { DashboardQueue } from '@outlay/contracts/dashboard';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { formatDateTime } from '@/lib/format';
import { cn } from '@/lib/utils';
import { CardLink } from './card-link';

export function QueueCard({ queue }: { queue: DashboardQueue }) {
  return (
    <Card data-testid="queue-card">
      <CardHeader>
        <CardTitle>My approval queue</CardTitle>
        <CardDescription>Requests waiting for your decision</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <dl className="grid grid-cols-3 gap-2 text-center">
          <Stat label="Waiting" value={queue.open} />
          <Stat label="Overdue" value={queue.overdue} tone={queue.overdue ? 'danger' : undefined} />
          <Stat label="Due soon" value={queue.dueSoon} tone={queue.dueSoon ? 'warning' : undefined} />
        </dl>
        {queue.oldest ? (
          <p className="text-sm text-muted-foreground">
            Oldest: <span className="font-medium text-foreground">{queue.oldest.reference}</span> {queue.oldest.title},
            waiting since {formatDateTime(queue.oldest.waitingSince)}
          </p>
        ) : (
          <p className="text-sm text-muted-foreground">Nothing is waiting for you.</p>
        )}
        <CardLink href="/approvals">Open approvals</CardLink>
      </CardContent>
    </Card>
  );
}

function Stat({ label, value, tone }: { label: string; value: number; tone?: 'danger' | 'warning' }) {
  return (
    <div
      className={cn(
        'rounded-md bg-muted px-2 py-3',
        tone === 'danger' && 'bg-red-50 text-red-900',
        tone === 'warning' && 'bg-amber-50 text-amber-900',
      )}
    >
      <dt className="text-xs">{label}</dt>
      <dd className="text-2xl font-semibold tabular-nums">{value}</dd>
    </div>
  );
}
