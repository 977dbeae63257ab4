import { useMutation } from '@tanstack/react-query';
import type { Announcement, CreateAnnouncementInput } from '@outlay/contracts/communications';
import { apiJson } from '@/lib/api-client';
import { ANNOUNCEMENTS_URL } from './announcements';
import { useInvalidateCommunications } from './unread';

export function createAnnouncement(input: CreateAnnouncementInput) {
  return apiJson<Announcement>('POST', ANNOUNCEMENTS_URL, input);
}

export function useCreateAnnouncement() {
  const invalidate = useInvalidateCommunications();
  return useMutation({ mutationFn: createAnnouncement, onSettled: () => invalidate() });
}
