import { CheckCheck, Megaphone, Plus } from 'lucide-react';
import { useState } from 'react';
import type { Announcement } from '@outlay/contracts/communications';
import { QueryState } from '@/components/query-state';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { useToast } from '@/components/ui/use-toast';
import { messageOf } from '@/lib/api-error';
import { formatDateTime } from '@/lib/format';
import { cn } from '@/lib/utils';
import { useAnnouncements } from '../api/announcements';
import { useMarkAllAnnouncementsRead, useMarkAnnouncementRead } from '../api/mark-announcement-read';
import { AnnouncementDialog } from './announcement-dialog';
import { MessageText } from './message-text';

function audienceOf(a: Announcement): string {
  if (a.audience === 'department') return `${a.organizationName ?? ''} · ${a.departmentName ?? ''}`;
  if (a.audience === 'organization') return a.organizationName ?? 'An organization';
  return 'Everyone';
}

function AnnouncementCard({ a }: { a: Announcement }) {
  const markRead = useMarkAnnouncementRead();
  const { toast } = useToast();
  return (
    <li>
      <article
        aria-labelledby={`announcement-${a.id}`}
        data-testid="announcement"
        className={cn('rounded-lg border bg-card p-4 shadow-sm', !a.read && 'border-blue-300 bg-blue-50/40')}
      >
        <header className="flex flex-wrap items-start justify-between gap-2">
          <div className="min-w-0">
            <h3 id={`announcement-${a.id}`} className="break-words text-base font-semibold">
              {a.title}
            </h3>
            <p className="text-sm text-muted-foreground">
              {a.authorName} · to {audienceOf(a)} · <time dateTime={a.createdAt}>{formatDateTime(a.createdAt)}</time>
            </p>
          </div>
          {!a.read && (
            <div className="flex items-center gap-2">
              <Badge variant="primary">New</Badge>
              <Button
                size="sm"
                variant="outline"
                disabled={markRead.isPending}
                onClick={() =>
                  markRead.mutate(a.id, {
                    onError: (err) =>
                      toast({
                        title: 'Could not mark it read',
                        description: messageOf(err, 'Try again.'),
                        variant: 'destructive',
                      }),
                  })
                }
              >
                Mark read
              </Button>
            </div>
          )}
        </header>
        <MessageText text={a.body} className="mt-3 whitespace-pre-wrap break-words text-sm" />
      </article>
    </li>
  );
}

export function AnnouncementsPanel({ canAnnounce, unread }: { canAnnounce: boolean; unread: number }) {
  const query = useAnnouncements();
  const markAll = useMarkAllAnnouncementsRead();
  const [creating, setCreating] = useState(false);
  const items = query.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <section aria-label="Announcements" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-muted-foreground">
          Announcements addressed to you, your organization or your department.
        </p>
        <div className="flex flex-wrap gap-2">
          <Button
            variant="outline"
            size="sm"
            disabled={unread === 0 || markAll.isPending}
            onClick={() => markAll.mutate()}
          >
            <CheckCheck aria-hidden="true" />
            Mark all read
          </Button>
          {canAnnounce && (
            <Button size="sm" onClick={() => setCreating(true)}>
              <Plus aria-hidden="true" />
              New announcement
            </Button>
          )}
        </div>
      </div>
      <QueryState
        query={{ ...query, data: query.data }}
        loadingLabel="Loading announcements…"
        errorMessage="Could not load the announcements."
        className="py-10"
      >
        {() =>
          items.length === 0 ? (
            <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed p-10 text-center text-muted-foreground">
              <Megaphone className="size-8" aria-hidden="true" />
              <p>No announcements yet.</p>
            </div>
          ) : (
            <>
              <ul className="flex flex-col gap-3">
                {items.map((a) => (
                  <AnnouncementCard key={a.id} a={a} />
                ))}
              </ul>
              {query.hasNextPage && (
                <Button
                  variant="outline"
                  className="self-center"
                  disabled={query.isFetchingNextPage}
                  onClick={() => void query.fetchNextPage()}
                >
                  {query.isFetchingNextPage ? 'Loading…' : 'Show older announcements'}
                </Button>
              )}
            </>
          )
        }
      </QueryState>
      {canAnnounce && creating && <AnnouncementDialog open={creating} onOpenChange={setCreating} />}
    </section>
  );
}
