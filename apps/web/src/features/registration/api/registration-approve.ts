import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApproveRegistrationInput, ApproveRegistrationResponse } from '@outlay/contracts/registration-requests';
import { apiJson } from '@/lib/api-client';
import { REGISTRATION_REQUESTS_URL } from './registration-requests';

/** Creates the user; the answer carries the temporary password, once. */
export function approveRegistration({ id, input }: { id: string; input: ApproveRegistrationInput }) {
  return apiJson<ApproveRegistrationResponse>('POST', `${REGISTRATION_REQUESTS_URL}/${id}/approve`, input);
}

export function useApproveRegistration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: approveRegistration,
    // Never cached: the password lives only in the dialog that shows it.
    gcTime: 0,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: [REGISTRATION_REQUESTS_URL] }),
        queryClient.invalidateQueries({ queryKey: ['/api/users'] }),
      ]),
  });
}
