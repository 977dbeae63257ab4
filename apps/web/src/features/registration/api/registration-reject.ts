import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RegistrationRequestItem } from '@outlay/contracts/registration-requests';
import { apiJson } from '@/lib/api-client';
import { REGISTRATION_REQUESTS_URL } from './registration-requests';

export function rejectRegistration({ id, reason }: { id: string; reason: string }) {
  return apiJson<RegistrationRequestItem>('POST', `${REGISTRATION_REQUESTS_URL}/${id}/reject`, { reason });
}

export function useRejectRegistration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rejectRegistration,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [REGISTRATION_REQUESTS_URL] }),
  });
}
