import { useMutation } from '@tanstack/react-query';
import type { Announcement, CommunicationsUnread } from '@outlay/contracts/communications';
import { apiJson } from '@/lib/api-client';
import { ANNOUNCEMENTS_URL } from './announcements';
import { useInvalidateCommunications } from './unread';

export function useMarkAnnouncementRead() {
  const invalidate = useInvalidateCommunications();
  return useMutation({
    mutationFn: (id: string) => apiJson<Announcement>('POST', `${ANNOUNCEMENTS_URL}/${encodeURIComponent(id)}/read`),
    onSettled: () => invalidate(),
  });
}

export function useMarkAllAnnouncementsRead() {
  const invalidate = useInvalidateCommunications();
  return useMutation({
    mutationFn: () => apiJson<CommunicationsUnread>('POST', `${ANNOUNCEMENTS_URL}/read-all`),
    onSettled: () => invalidate(),
  });
}
