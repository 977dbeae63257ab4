import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { navigate } from 'wouter/use-browser-location';
import { REDIRECT_AFTER_LOGIN_MS } from '@outlay/contracts/constants';
import type { LoginResponse } from '@outlay/contracts/auth';
import { toast } from '@/components/ui/use-toast';
import { storeSession } from '@/lib/auth-storage';
import { CURRENT_USER_KEY } from '@/lib/current-user';
import { savePasswordChangeToken } from './password-change-token';

export type SignInOutcome =
  | { kind: 'two-factor'; twoFactorToken: string }
  | { kind: 'password-change' }
  | { kind: 'signed-in' }
  | { kind: 'failed' };

/** Turns any login-shaped answer (password step or 2FA step) into the next screen (docs/product.md §6.3). */
export function useSignInFlow() {
  const queryClient = useQueryClient();
  return useCallback(
    async (response: LoginResponse): Promise<SignInOutcome> => {
      if (response.requirePasswordChange) {
        if (response.userId && response.passwordChangeToken) {
          savePasswordChangeToken(response.userId, response.passwordChangeToken);
        }
        toast({
          title: 'Password Change Required',
          description: 'Please change your temporary password before you continue.',
        });
        navigate(`/change-password?userId=${encodeURIComponent(response.userId ?? '')}&firstTime=true`);
        return { kind: 'password-change' };
      }
      if (response.requireTwoFactor && response.twoFactorToken) {
        return { kind: 'two-factor', twoFactorToken: response.twoFactorToken };
      }
      if (!response.tokens) {
        toast({ variant: 'destructive', title: 'Error', description: 'An error occurred during login' });
        return { kind: 'failed' };
      }
      try {
        storeSession(response.tokens, response.deviceId);
      } catch {
        toast({
          variant: 'destructive',
          title: 'Storage Error',
          description: 'Unable to save login session. Please check browser settings.',
        });
        return { kind: 'failed' };
      }
      await queryClient.resetQueries({ queryKey: CURRENT_USER_KEY });
      toast({ variant: 'success', title: 'Login Successful', description: 'Welcome back to Outlay.' });
      const next = response.requireTwoFactorSetup ? '/setup-2fa?required=true' : '/';
      window.setTimeout(() => navigate(next), REDIRECT_AFTER_LOGIN_MS);
      return { kind: 'signed-in' };
    },
    [queryClient],
  );
}
