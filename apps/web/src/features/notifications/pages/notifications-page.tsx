import { useState } from 'react';
import {
  AlertTriangle,
  Bell,
  BellOff,
  CheckCheck,
  CircleCheck,
  CircleX,
  Coins,
  MessageSquare,
  PiggyBank,
  Repeat,
  Settings,
  UserCheck,
  type LucideIcon,
} from 'lucide-react';
import { Link, useLocation } from 'wouter';
import { notificationTypeLabel, type NotificationItem } from '@outlay/contracts/notifications';
import { PageHeader } from '@/components/page-header';
import { QueryState } from '@/components/query-state';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { useLiveEvents, useLiveStatus } from '@/lib/live-events';
import { formatDateTime } from '@/lib/format';
import { cn } from '@/lib/utils';
import {
  useInvalidateNotifications,
  useMarkAllRead,
  useMarkRead,
  useNotifications,
  useUnreadCount,
} from '../api/notifications';

const PAGE_SIZE = 25;

function iconOf(type: string): LucideIcon {
  if (type.startsWith('approval_')) return UserCheck;
  if (type === 'request_approved' || type === 'request_step_approved') return CircleCheck;
  if (type === 'request_rejected' || type === 'request_cancelled') return CircleX;
  if (type === 'request_paid') return Coins;
  if (type === 'request_info_requested' || type === 'request.commented') return MessageSquare;
  if (type === 'recurring_raised' || type === 'request_rerouted') return Repeat;
  if (type.startsWith('budget_')) return type === 'budget_overrun' ? AlertTriangle : PiggyBank;
  return Bell;
}

const typeLabel = (type: string) => notificationTypeLabel(type);

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
/** "3 minutes ago", "yesterday"; the exact time is in the title attribute. */
export function relativeTime(iso: string, now = Date.now()): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 45) return 'just now';
  if (abs < 3600) return relative.format(Math.round(seconds / 60), 'minute');
  if (abs < 86_400) return relative.format(Math.round(seconds / 3600), 'hour');
  if (abs < 30 * 86_400) return relative.format(Math.round(seconds / 86_400), 'day');
  return formatDateTime(iso) ?? iso;
}

function NotificationRow({
  item,
  onOpen,
  onMarkRead,
  busy,
}: {
  item: NotificationItem;
  onOpen: () => void;
  onMarkRead: () => void;
  busy: boolean;
}) {
  const Icon = iconOf(item.type);
  return (
    <li
      className={cn('flex gap-3 px-4 py-3 sm:px-5', !item.read && 'bg-blue-50/60')}
      data-testid="notification-row"
      data-id={item.id}
      data-read={item.read ? 'true' : 'false'}
    >
      <span
        className={cn(
          'mt-0.5 inline-flex size-9 shrink-0 items-center justify-center rounded-full',
          item.read ? 'bg-slate-100 text-slate-600' : 'bg-blue-100 text-blue-800',
        )}
        aria-hidden="true"
      >
        {/* eslint-disable-next-line react-hooks/static-components -- iconOf returns one of the module's lucide icons, not a component made here */}
        <Icon className="size-4" />
      </span>
      <div className="min-w-0 flex-1">
        <button
          type="button"
          onClick={onOpen}
          className="block w-full rounded text-left focus-visible:outline-2 focus-visible:outline-ring"
        >
          <span
            className={cn('block break-words text-sm', item.read ? 'text-slate-700' : 'font-semibold text-foreground')}
          >
            {!item.read && <span className="sr-only">Unread: </span>}
            {item.title}
          </span>
          {item.body && <span className="mt-0.5 block break-words text-sm text-muted-foreground">{item.body}</span>}
        </button>
        <div className="mt-1 flex flex-wrap items-center gap-x-2 text-xs text-muted-foreground">
          <span>{typeLabel(item.type)}</span>
          <span aria-hidden="true">·</span>
          <time dateTime={item.createdAt} title={formatDateTime(item.createdAt) ?? undefined}>
            {relativeTime(item.createdAt)}
          </time>
        </div>
      </div>
      {!item.read && (
        <Button
          variant="ghost"
          size="sm"
          className="-mr-2 -mt-1 size-10 shrink-0 self-start p-0 sm:mr-0 sm:mt-0 sm:h-8 sm:w-auto sm:px-3"
          onClick={onMarkRead}
          disabled={busy}
          aria-label={`Mark read: ${item.title}`}
        >
          <CheckCheck className="size-4" aria-hidden="true" />
          <span className="hidden sm:inline">Mark read</span>
        </Button>
      )}
    </li>
  );
}

export default function NotificationsPage() {
  const [, navigate] = useLocation();
  const [unreadOnly, setUnreadOnly] = useState(false);
  const [page, setPage] = useState(1);
  const query = useNotifications({ page, pageSize: PAGE_SIZE, unreadOnly });
  const invalidate = useInvalidateNotifications();
  const markRead = useMarkRead();
  const markAll = useMarkAllRead();

  // A new notification shows up without a reload.
  useLiveEvents((event) => {
    if (event.kind === 'notification') void invalidate();
  });

  const open = (item: NotificationItem) => {
    const go = () => {
      if (item.link) navigate(item.link);
    };
    if (item.read) return go();
    markRead.mutate(item.id, { onSettled: go });
  };

  const live = useLiveStatus();
  const data = query.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  // Unread ones may sit on another page: the count, not this page, says whether there are any.
  const unread = useUnreadCount();
  const hasUnread = (unread.data?.count ?? 0) > 0 || (data?.items.some((n) => !n.read) ?? false);

  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader
        title="Notifications"
        description={
          <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
            Requests, approvals and budgets that concern you.
            {live === 'open' ? (
              <Badge variant="success" data-testid="live-indicator" title="New notifications appear without a reload">
                <span
                  className="mr-1 inline-block size-2 animate-pulse rounded-full bg-emerald-600"
                  aria-hidden="true"
                />
                Live
              </Badge>
            ) : (
              // Offline only between attempts (or for the first frame): the stream retries on its own.
              <Badge variant="default" data-testid="live-indicator">
                Connecting…
              </Badge>
            )}
          </span>
        }
        actions={
          <>
            <Button variant="outline" asChild>
              <Link href="/notification-settings">
                <Settings className="size-4" aria-hidden="true" />
                Settings
              </Link>
            </Button>
            <Button
              onClick={() =>
                markAll.mutate(undefined, {
                  onSuccess: (r) =>
                    toast({
                      variant: 'success',
                      title: r.updated === 1 ? '1 notification marked read' : `${r.updated} notifications marked read`,
                    }),
                  onError: (e) =>
                    toast({ variant: 'destructive', title: 'Could not mark all read', description: e.message }),
                })
              }
              disabled={markAll.isPending || !hasUnread}
            >
              <CheckCheck className="size-4" aria-hidden="true" />
              Mark all read
            </Button>
          </>
        }
      />

      <div role="group" aria-label="Show" className="mb-3 inline-flex rounded-md border bg-card p-0.5">
        {[
          { value: false, label: 'All' },
          { value: true, label: 'Unread' },
        ].map((f) => (
          <button
            key={f.label}
            type="button"
            aria-pressed={unreadOnly === f.value}
            onClick={() => {
              setUnreadOnly(f.value);
              setPage(1);
            }}
            className={cn(
              'rounded px-3 py-1.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-ring',
              unreadOnly === f.value ? 'bg-primary text-primary-foreground' : 'text-slate-700 hover:bg-slate-100',
            )}
          >
            {f.label}
          </button>
        ))}
      </div>

      <section
        aria-label="Notification list"
        className="overflow-hidden rounded-lg border bg-card"
        aria-busy={query.isFetching}
      >
        <QueryState
          query={query}
          loadingLabel="Loading notifications"
          errorMessage="Could not load your notifications."
          className="p-10"
        >
          {(list) =>
            list.items.length === 0 ? (
              <div className="flex flex-col items-center gap-2 p-10 text-center text-muted-foreground">
                <BellOff className="size-8" aria-hidden="true" />
                <p className="text-sm">
                  {unreadOnly ? 'No unread notifications. You are all caught up.' : 'No notifications yet.'}
                </p>
              </div>
            ) : (
              <ul className="divide-y">
                {list.items.map((item) => (
                  <NotificationRow
                    key={item.id}
                    item={item}
                    busy={markRead.isPending && markRead.variables === item.id}
                    onOpen={() => open(item)}
                    onMarkRead={() => markRead.mutate(item.id)}
                  />
                ))}
              </ul>
            )
          }
        </QueryState>
      </section>

      {data && pages > 1 && (
        <nav aria-label="Pages" className="mt-3 flex items-center justify-between text-sm">
          <span className="text-muted-foreground">
            Page {page} of {pages} · {data.total} notifications
          </span>
          <div className="flex gap-2">
            <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
              Previous
            </Button>
            <Button variant="outline" size="sm" disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>
              Next
            </Button>
          </div>
        </nav>
      )}
    </div>
  );
}
