import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { navigate } from 'wouter/use-browser-location';
import { toast } from '@/components/ui/use-toast';
import { apiRequest } from '@/lib/api-client';
import { clearSession, clearTokens, getAccessToken } from '@/lib/auth-storage';

export function logout() {
  return apiRequest('POST', '/api/auth/logout', undefined, { onSessionLost: 'clear' });
}

/** docs/product.md §6.3: call logout only with a token, clear tokens and cache, go to /auth, say so. */
export function useLogout() {
  const queryClient = useQueryClient();
  return useCallback(async () => {
    try {
      if (getAccessToken()) await logout();
      clearTokens();
    } catch {
      clearSession();
    }
    queryClient.clear();
    navigate('/auth');
    toast({ title: 'Session Ended', description: 'You have been logged out successfully' });
  }, [queryClient]);
}
