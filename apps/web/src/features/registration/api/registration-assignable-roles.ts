import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AssignableRoles } from '@outlay/contracts/registration-requests';

export const ASSIGNABLE_ROLES_KEY = ['/api/registration-requests/assignable-roles'] as const;

/** Roles the reviewer may grant: never more than they hold. */
export function assignableRolesQueryOptions() {
  return queryOptions<AssignableRoles>({ queryKey: ASSIGNABLE_ROLES_KEY, staleTime: 5 * 60_000 });
}

export function useAssignableRoles(enabled = true) {
  return useQuery({ ...assignableRolesQueryOptions(), enabled });
}
