import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TwoFactorAdoption } from '@outlay/contracts/security';
import { apiJson } from '@/lib/api-client';

export const TWO_FACTOR_ADOPTION_URL = '/api/security/two-factor-adoption';

export function twoFactorAdoptionQueryOptions() {
  return queryOptions({
    queryKey: [TWO_FACTOR_ADOPTION_URL],
    queryFn: ({ signal }) => apiJson<TwoFactorAdoption>('GET', TWO_FACTOR_ADOPTION_URL, undefined, { signal }),
  });
}

export function useTwoFactorAdoption() {
  return useQuery(twoFactorAdoptionQueryOptions());
}
