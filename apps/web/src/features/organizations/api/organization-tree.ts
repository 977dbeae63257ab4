import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OrganizationTree } from '@outlay/contracts/organizations';
import { apiJson } from '@/lib/api-client';
import { ORGANIZATION_TREE_URL } from './keys';

export function organizationTreeQuery() {
  return queryOptions({
    queryKey: [ORGANIZATION_TREE_URL],
    queryFn: ({ signal }) => apiJson<OrganizationTree>('GET', ORGANIZATION_TREE_URL, undefined, { signal }),
  });
}

export function useOrganizationTree() {
  return useQuery(organizationTreeQuery());
}
