import { useCallback } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Organization, UpdateOrganizationValues } from '@outlay/contracts/organizations';
import { apiJson } from '@/lib/api-client';
import { DEPARTMENTS_URL, invalidate, ORGANIZATION_TREE_URL, ORGANIZATIONS_URL } from './keys';

/** `headers` carries If-Match: the save is refused (412) when the organization changed since it was loaded. */
export function updateOrganization({
  id,
  input,
  headers,
}: {
  id: string;
  input: UpdateOrganizationValues;
  headers?: Record<string, string>;
}) {
  return apiJson<Organization>('PATCH', `${ORGANIZATIONS_URL}/${id}`, input, { headers });
}

export function fetchOrganization(id: string) {
  return apiJson<Organization>('GET', `${ORGANIZATIONS_URL}/${id}`);
}

/** The latest copy of one organization, for a form to reload; the lists behind it refresh too. */
export function useReloadOrganization(id: string) {
  const queryClient = useQueryClient();
  return useCallback(async () => {
    const fresh = await fetchOrganization(id);
    void invalidate(queryClient, ORGANIZATIONS_URL, ORGANIZATION_TREE_URL);
    return fresh;
  }, [id, queryClient]);
}

export function useUpdateOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateOrganization,
    onSuccess: () => invalidate(queryClient, ORGANIZATIONS_URL, ORGANIZATION_TREE_URL, DEPARTMENTS_URL),
  });
}
