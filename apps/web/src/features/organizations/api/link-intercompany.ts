import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { IntercompanyLink, LinkIntercompanyInput } from '@outlay/contracts/organizations';
import { apiJson } from '@/lib/api-client';
import { INTERCOMPANY_LINKS_URL, invalidate } from './keys';

export function linkIntercompany({ vendorId, input }: { vendorId: string; input: LinkIntercompanyInput }) {
  return apiJson<IntercompanyLink>('PUT', `${INTERCOMPANY_LINKS_URL}/${vendorId}`, input);
}

export function useLinkIntercompany() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: linkIntercompany,
    onSuccess: () => invalidate(queryClient, INTERCOMPANY_LINKS_URL, `${INTERCOMPANY_LINKS_URL}/candidates`),
  });
}
