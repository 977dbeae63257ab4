import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RegistrationRequestItem } from '@outlay/contracts/registration-requests';
import { apiJson } from '@/lib/api-client';

/** The review list (GET, with the list protocol) and the base of every review call. */
export const REGISTRATION_REQUESTS_URL = '/api/registration-requests';

export function fetchRegistrationRequest(id: string, signal?: AbortSignal) {
  return apiJson<RegistrationRequestItem>('GET', `${REGISTRATION_REQUESTS_URL}/${id}`, undefined, { signal });
}

export function registrationRequestQueryOptions(id: string) {
  return queryOptions({
    queryKey: [REGISTRATION_REQUESTS_URL, id],
    queryFn: ({ signal }) => fetchRegistrationRequest(id, signal),
  });
}

export function useRegistrationRequest(id: string | null) {
  return useQuery({ ...registrationRequestQueryOptions(id ?? ''), enabled: Boolean(id) });
}
