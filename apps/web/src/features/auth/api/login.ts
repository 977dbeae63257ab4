import { useMutation } from '@tanstack/react-query';
import type { LoginInput, LoginResponse } from '@outlay/contracts/auth';
import { apiJson } from '@/lib/api-client';

/** Public call: never sends a stale bearer token, so a wrong password cannot trigger a refresh. */
export function login(input: LoginInput) {
  return apiJson<LoginResponse>('POST', '/api/auth/login', input, { auth: false });
}

export function useLoginMutation() {
  return useMutation({ mutationFn: login });
}
