import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OrganizationMember } from '@outlay/contracts/organizations';
import { apiJson } from '@/lib/api-client';
import { ORGANIZATIONS_URL } from './keys';

/** Active people of one organization: the department-head picker. */
export function organizationMembersQuery(organizationId: string) {
  const url = `${ORGANIZATIONS_URL}/${organizationId}/members`;
  return queryOptions({
    queryKey: [url],
    queryFn: ({ signal }) => apiJson<{ items: OrganizationMember[] }>('GET', url, undefined, { signal }),
    select: (data) => data.items,
  });
}

export function useOrganizationMembers(organizationId: string | null | undefined) {
  return useQuery({ ...organizationMembersQuery(organizationId ?? ''), enabled: Boolean(organizationId) });
}
