import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Organization, UpdateOrganizationValues } from '@outlay/contracts';
import { apiJson } from '@/lib/api-client';
import { DEPARTMENTS_URL, invalidate, ORGANIZATION_TREE_URL, ORGANIZATIONS_URL } from './keys';

export function updateOrganization({ id, input }: { id: string; input: UpdateOrganizationValues }) {
  return apiJson<Organization>('PATCH', `${ORGANIZATIONS_URL}/${id}`, input);
}

export function useUpdateOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateOrganization,
    onSuccess: () => invalidate(queryClient, ORGANIZATIONS_URL, ORGANIZATION_TREE_URL, DEPARTMENTS_URL),
  });
}
