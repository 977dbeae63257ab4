import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OnboardingChecklist } from '@outlay/contracts/onboarding';
import { apiJson } from '@/lib/api-client';

export const ONBOARDING_URL = '/api/onboarding';

export function fetchOnboarding(signal?: AbortSignal) {
  return apiJson<OnboardingChecklist>('GET', ONBOARDING_URL, undefined, { signal });
}

/** The caller's checklist; steps complete on the server from what the person did. */
export function onboardingQueryOptions() {
  return queryOptions({ queryKey: [ONBOARDING_URL], queryFn: ({ signal }) => fetchOnboarding(signal) });
}

export function useOnboarding() {
  return useQuery(onboardingQueryOptions());
}
