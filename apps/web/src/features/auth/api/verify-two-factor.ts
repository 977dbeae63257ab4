import { useMutation } from '@tanstack/react-query';
import type { LoginResponse } from '@outlay/contracts/auth';
import { apiJson } from '@/lib/api-client';

export interface VerifyTwoFactorInput {
  twoFactorToken: string;
  totpCode: string;
}

export function verifyTwoFactor(input: VerifyTwoFactorInput) {
  return apiJson<LoginResponse>('POST', '/api/auth/2fa/verify', input, { auth: false });
}

export function useVerifyTwoFactorMutation() {
  return useMutation({ mutationFn: verifyTwoFactor });
}
