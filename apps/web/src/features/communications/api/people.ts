import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { PersonList } from '@outlay/contracts/communications';
import { apiJson } from '@/lib/api-client';

export const PEOPLE_URL = '/api/communications/people';

export function usePeople(q: string, enabled: boolean) {
  return useQuery({
    queryKey: [PEOPLE_URL, q],
    queryFn: ({ signal }) =>
      apiJson<PersonList>('GET', `${PEOPLE_URL}?${new URLSearchParams(q ? { q } : {}).toString()}`, undefined, {
        signal,
      }),
    enabled,
    placeholderData: keepPreviousData,
  });
}
