import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateOrganizationValues, Organization } from '@outlay/contracts/organizations';
import { apiJson } from '@/lib/api-client';
import { invalidate, ORGANIZATION_TREE_URL, ORGANIZATIONS_URL } from './keys';

export function createOrganization(input: CreateOrganizationValues) {
  return apiJson<Organization>('POST', ORGANIZATIONS_URL, input);
}

export function useCreateOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createOrganization,
    onSuccess: () => invalidate(queryClient, ORGANIZATIONS_URL, ORGANIZATION_TREE_URL),
  });
}
