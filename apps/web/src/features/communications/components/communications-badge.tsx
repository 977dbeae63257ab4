import { MessageSquare } from 'lucide-react';
import { TopBarCounter } from '@/components/top-bar-counter';
import { plural } from '@/lib/format';
import { useCommunicationsUnread } from '../api/unread';
import { useCommunicationsLive } from './communications-live';

/** The top bar's unread messages and announcements, refreshed live; beside the notifications bell. */
export function CommunicationsBadge({ className }: { className?: string }) {
  const { data } = useCommunicationsUnread();
  useCommunicationsLive();
  const messages = data?.messages ?? 0;
  const announcements = data?.announcements ?? 0;
  return (
    <TopBarCounter
      href="/communications"
      name="Communications"
      detail={`${plural(messages, 'message')}, ${plural(announcements, 'announcement')}`}
      icon={MessageSquare}
      count={messages + announcements}
      tone="blue"
      testId="communications-badge"
      countTestId="communications-count"
      className={className}
    />
  );
}
