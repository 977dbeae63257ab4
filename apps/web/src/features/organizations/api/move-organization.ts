import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MoveOrganizationInput, Organization } from '@outlay/contracts/organizations';
import { apiJson } from '@/lib/api-client';
import { invalidate, ORGANIZATION_TREE_URL, ORGANIZATIONS_URL } from './keys';

export function moveOrganization({ id, input }: { id: string; input: MoveOrganizationInput }) {
  return apiJson<Organization>('POST', `${ORGANIZATIONS_URL}/${id}/move`, input);
}

export function useMoveOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: moveOrganization,
    onSuccess: () => invalidate(queryClient, ORGANIZATIONS_URL, ORGANIZATION_TREE_URL),
  });
}
