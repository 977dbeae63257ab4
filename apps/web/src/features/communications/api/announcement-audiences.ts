import { useQuery } from '@tanstack/react-query';
import type { AnnouncementAudiences } from '@outlay/contracts/communications';
import { apiJson } from '@/lib/api-client';

export const AUDIENCES_URL = '/api/communications/announcements/audiences';

export function useAnnouncementAudiences(enabled: boolean) {
  return useQuery({
    queryKey: [AUDIENCES_URL],
    queryFn: ({ signal }) => apiJson<AnnouncementAudiences>('GET', AUDIENCES_URL, undefined, { signal }),
    enabled,
    staleTime: 5 * 60_000,
  });
}
