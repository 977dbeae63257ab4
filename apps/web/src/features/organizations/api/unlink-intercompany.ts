import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { INTERCOMPANY_LINKS_URL, invalidate } from './keys';

export async function unlinkIntercompany(vendorId: string) {
  await apiRequest('DELETE', `${INTERCOMPANY_LINKS_URL}/${vendorId}`);
}

export function useUnlinkIntercompany() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: unlinkIntercompany,
    onSuccess: () => invalidate(queryClient, INTERCOMPANY_LINKS_URL, `${INTERCOMPANY_LINKS_URL}/candidates`),
  });
}
