import type { QueryClient } from '@tanstack/react-query';

/** List endpoints of this feature; query keys start with these URLs. */
export const USERS_URL = '/api/users';
export const PASSWORDS_URL = '/api/users/passwords';
export const SESSIONS_URL = '/api/sessions';

/** After any change to people: every users, password and session view, and the form choices (managers). */
export function invalidateUsers(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: [USERS_URL] }),
    queryClient.invalidateQueries({ queryKey: [PASSWORDS_URL] }),
    queryClient.invalidateQueries({ queryKey: [SESSIONS_URL] }),
    queryClient.invalidateQueries({ queryKey: ['/api/users/options'] }),
  ]);
}
