import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RolesOverview } from '@outlay/contracts/roles';
import { apiJson } from '@/lib/api-client';

export const ROLES_URL = '/api/roles';
export const ROLE_PEOPLE_URL = '/api/roles/people';
export const roleHoldersUrl = (role: string) => `${ROLES_URL}/${role}/holders`;

/** `GET /api/roles`: system roles with their permissions and holders, and the custom roles. */
export function rolesOverviewQueryOptions() {
  return queryOptions({
    queryKey: [ROLES_URL],
    queryFn: ({ signal }) => apiJson<RolesOverview>('GET', ROLES_URL, undefined, { signal }),
  });
}

export function useRolesOverview() {
  return useQuery(rolesOverviewQueryOptions());
}
