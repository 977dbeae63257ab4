import { Bell } from 'lucide-react';
import { Link } from 'wouter';
import { useLiveEvents } from '@/lib/live-events';
import { cn } from '@/lib/utils';
import { useInvalidateNotifications, useUnreadCount } from '../api/notifications';

/** The top bar's bell: the unread count, refreshed live when a notification arrives. */
export function NotificationBell({ className }: { className?: string }) {
  const { data } = useUnreadCount();
  const invalidate = useInvalidateNotifications();
  useLiveEvents((event) => {
    if (event.kind === 'notification') void invalidate();
  });
  const count = data?.count ?? 0;
  const shown = count > 99 ? '99+' : String(count);
  return (
    <Link
      href="/notifications"
      aria-label={`Notifications, ${count} unread`}
      data-testid="notification-bell"
      className={cn(
        'relative inline-flex size-10 items-center justify-center rounded-md text-slate-700 transition-colors hover:bg-slate-100 hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring',
        className,
      )}
    >
      <Bell className="size-5" aria-hidden="true" />
      {count > 0 && (
        <span
          aria-hidden="true"
          data-testid="notification-badge"
          className="absolute -right-0.5 -top-0.5 inline-flex min-w-5 items-center justify-center rounded-full bg-red-600 px-1 text-[11px] font-semibold leading-5 text-white"
        >
          {shown}
        </span>
      )}
    </Link>
  );
}
