import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OnboardingChecklist } from '@outlay/contracts/onboarding';
import { apiJson } from '@/lib/api-client';
import { ONBOARDING_URL } from './get-onboarding';

export function setOnboardingDismissed(dismissed: boolean) {
  return apiJson<OnboardingChecklist>('PUT', `${ONBOARDING_URL}/dismissed`, { dismissed });
}

/** Hides the checklist from the dashboard, or shows it again. */
export function useDismissOnboarding() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setOnboardingDismissed,
    onSuccess: (checklist) => queryClient.setQueryData([ONBOARDING_URL], checklist),
  });
}
