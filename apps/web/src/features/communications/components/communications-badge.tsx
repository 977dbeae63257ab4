import { MessageSquare } from 'lucide-react';
import { Link } from 'wouter';
import { cn } from '@/lib/utils';
import { useCommunicationsUnread } from '../api/unread';
import { useCommunicationsLive } from './communications-live';

/** The top bar's unread messages and announcements, refreshed live; beside the notifications bell. */
export function CommunicationsBadge({ className }: { className?: string }) {
  const { data } = useCommunicationsUnread();
  useCommunicationsLive();
  const messages = data?.messages ?? 0;
  const announcements = data?.announcements ?? 0;
  const count = messages + announcements;
  const shown = count > 99 ? '99+' : String(count);
  return (
    <Link
      href="/communications"
      aria-label={`Communications, ${messages} unread ${messages === 1 ? 'message' : 'messages'} and ${announcements} unread ${announcements === 1 ? 'announcement' : 'announcements'}`}
      data-testid="communications-badge"
      className={cn(
        'relative inline-flex size-10 items-center justify-center rounded-md text-slate-700 transition-colors hover:bg-slate-100 hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring',
        className,
      )}
    >
      <MessageSquare className="size-5" aria-hidden="true" />
      {count > 0 && (
        <span
          aria-hidden="true"
          data-testid="communications-count"
          className="absolute -right-0.5 -top-0.5 inline-flex min-w-5 items-center justify-center rounded-full bg-blue-600 px-1 text-[11px] font-semibold leading-5 text-white"
        >
          {shown}
        </span>
      )}
    </Link>
  );
}
