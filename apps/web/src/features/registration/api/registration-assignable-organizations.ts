import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AssignableOrganizations } from '@outlay/contracts/registration-requests';

export const ASSIGNABLE_ORGANIZATIONS_KEY = ['/api/registration-requests/assignable-organizations'] as const;

/** Organizations (with departments) the reviewer may place a new user in. */
export function assignableOrganizationsQueryOptions() {
  return queryOptions<AssignableOrganizations>({ queryKey: ASSIGNABLE_ORGANIZATIONS_KEY, staleTime: 5 * 60_000 });
}

export function useAssignableOrganizations(enabled = true) {
  return useQuery({ ...assignableOrganizationsQueryOptions(), enabled });
}
