import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { CURRENT_USER_KEY } from '@/lib/current-user';

export interface TwoFactorSetup {
  qrCode: string;
  secret: string;
  otpauthUri: string;
}

export function setupTwoFactor() {
  return apiJson<TwoFactorSetup>('POST', '/api/auth/2fa/setup');
}

export function enableTwoFactor(totpCode: string) {
  return apiJson<{ message: string; recoveryCodes: string[] }>('POST', '/api/auth/2fa/enable', { totpCode });
}

export function disableTwoFactor(totpCode: string) {
  return apiJson<{ message: string }>('POST', '/api/auth/2fa/disable', { totpCode });
}

export function useSetupTwoFactorMutation() {
  return useMutation({ mutationFn: setupTwoFactor });
}

function useInvalidateUserAndProfile() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY }),
      queryClient.invalidateQueries({ queryKey: ['/api/profile'] }),
    ]);
}

export function useEnableTwoFactorMutation() {
  const invalidate = useInvalidateUserAndProfile();
  return useMutation({ mutationFn: enableTwoFactor, onSuccess: () => void invalidate() });
}

export function useDisableTwoFactorMutation() {
  const invalidate = useInvalidateUserAndProfile();
  return useMutation({ mutationFn: disableTwoFactor, onSuccess: () => void invalidate() });
}
