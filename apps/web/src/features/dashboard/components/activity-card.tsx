import { FileText } from 'lucide-react';
import { REQUEST_STATUS_LABELS } from '@outlay/contracts/request-statuses';
import type { ActivityItem } from '@outlay/contracts/dashboard';
import { QueryState } from '@/components/query-state';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Badge } from '@/components/ui/badge';
import { formatDateTime, formatMoney } from '@/lib/format';
import { useActivity } from '../api/dashboard';

export function ActivityCard({ connected, announcement }: { connected: boolean; announcement: string }) {
  const feed = useActivity();
  return (
    <Card data-testid="activity-card">
      <CardHeader>
        <div className="flex items-center justify-between gap-2">
          <CardTitle>Live activity</CardTitle>
          {connected ? (
            <Badge variant="success" data-testid="live-indicator">
              <span className="mr-1 inline-block size-2 animate-pulse rounded-full bg-emerald-600" aria-hidden="true" />
              Live
            </Badge>
          ) : (
            <Badge variant="default" data-testid="live-indicator">
              Connecting…
            </Badge>
          )}
        </div>
        <CardDescription>What is happening on requests you can see</CardDescription>
      </CardHeader>
      <CardContent>
        <p className="sr-only" aria-live="polite" data-testid="activity-announcer">
          {announcement}
        </p>
        <QueryState query={feed} loadingLabel="Loading activity" errorMessage="Could not load the activity." compact>
          {(data) =>
            data.items.length === 0 ? (
              <p className="text-sm text-muted-foreground">No activity yet.</p>
            ) : (
              <ol className="flex flex-col gap-3" data-testid="activity-feed">
                {data.items.map((item) => (
                  <ActivityRow key={item.id} item={item} />
                ))}
              </ol>
            )
          }
        </QueryState>
      </CardContent>
    </Card>
  );
}

function ActivityRow({ item }: { item: ActivityItem }) {
  return (
    <li className="flex gap-3 text-sm" data-testid="activity-item">
      <FileText className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
      <div className="flex min-w-0 flex-col">
        <span className="break-words">{item.text}</span>
        <span className="text-xs text-muted-foreground">
          {formatDateTime(item.at)} · {formatMoney(item.amount, item.currency)} · {REQUEST_STATUS_LABELS[item.status]}
        </span>
      </div>
    </li>
  );
}
