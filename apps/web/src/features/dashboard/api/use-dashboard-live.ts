import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useLiveEvents, useLiveStatus, type LiveEvent } from '@/lib/live-events';
import { ACTIVITY_URL, DASHBOARD_URL } from './dashboard';

const THROTTLE_MS = 1_000;

/**
 * Keeps the dashboard current over the shared server-sent-events stream: on an 'activity' or
 * 'budget' event the feed and the figures are refetched (at most once a second, however many
 * events arrive), and the newest line is announced politely to screen readers.
 */
export function useDashboardLive(): { connected: boolean; announcement: string } {
  const queryClient = useQueryClient();
  const [announcement, setAnnouncement] = useState('');
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const status = useLiveStatus();

  useLiveEvents((e: LiveEvent) => {
    if (e.kind !== 'activity' && e.kind !== 'budget') return;
    if (e.kind === 'activity' && e.summary) setAnnouncement(`New activity: ${e.summary}`);
    if (timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      void queryClient.invalidateQueries({ queryKey: [ACTIVITY_URL] });
      void queryClient.invalidateQueries({ queryKey: [DASHBOARD_URL] });
    }, THROTTLE_MS);
  });

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
      timer.current = null;
    },
    [],
  );

  return { connected: status === 'open', announcement };
}
