import { useMutation } from '@tanstack/react-query';
import type { RegistrationRequestInput } from '@outlay/contracts/registration-requests';
import { apiJson } from '@/lib/api-client';

export function createRegistrationRequest(input: RegistrationRequestInput) {
  return apiJson<{ message: string; id: string }>('POST', '/api/registration-requests', input, { auth: false });
}

export function useCreateRegistrationRequest() {
  return useMutation({ mutationFn: createRegistrationRequest });
}
