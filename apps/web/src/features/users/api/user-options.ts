import { queryOptions, useQuery } from '@tanstack/react-query';
import type { UserOptions } from '@outlay/contracts/users';

/** `GET /api/users/options`: organizations, departments, roles and managers the caller may assign. */
export const USER_OPTIONS_KEY = ['/api/users/options'] as const;

export function userOptionsQueryOptions() {
  return queryOptions<UserOptions>({ queryKey: USER_OPTIONS_KEY, staleTime: 60_000 });
}

export function useUserOptions() {
  return useQuery(userOptionsQueryOptions());
}
