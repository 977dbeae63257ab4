import { useLiveEvents } from '@/lib/live-events';
import { useInvalidateCommunications } from '../api/unread';

/** Refreshes every communications query when a message, a read mark or an announcement concerns the user. */
export function useCommunicationsLive(enabled = true) {
  const invalidate = useInvalidateCommunications();
  useLiveEvents(
    (event) => {
      if (event.kind === 'message' || event.kind === 'announcement') void invalidate();
    },
    { enabled },
  );
}
