import { Bell } from 'lucide-react';
import { TopBarCounter } from '@/components/top-bar-counter';
import { useLiveEvents } from '@/lib/live-events';
import { useInvalidateNotifications, useUnreadCount } from '../api/notifications';

/** The top bar's bell: the unread count, refreshed live when a notification arrives. */
export function NotificationBell({ className }: { className?: string }) {
  const { data } = useUnreadCount();
  const invalidate = useInvalidateNotifications();
  useLiveEvents((event) => {
    if (event.kind === 'notification') void invalidate();
  });
  const count = data?.count ?? 0;
  return (
    <TopBarCounter
      href="/notifications"
      name="Notifications"
      icon={Bell}
      count={count}
      tone="red"
      testId="notification-bell"
      countTestId="notification-badge"
      className={className}
    />
  );
}
