import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SecuritySettings, SecuritySettingsInput } from '@outlay/contracts/security';
import { apiJson } from '@/lib/api-client';

export const SECURITY_SETTINGS_URL = '/api/security/settings';

export function fetchSecuritySettings(signal?: AbortSignal) {
  return apiJson<SecuritySettings>('GET', SECURITY_SETTINGS_URL, undefined, { signal });
}

export function securitySettingsQueryOptions() {
  return queryOptions({ queryKey: [SECURITY_SETTINGS_URL], queryFn: ({ signal }) => fetchSecuritySettings(signal) });
}

export function useSecuritySettings() {
  return useQuery(securitySettingsQueryOptions());
}

export function saveSecuritySettings(input: SecuritySettingsInput) {
  return apiJson<SecuritySettings>('PUT', SECURITY_SETTINGS_URL, input);
}

export function useSaveSecuritySettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveSecuritySettings,
    onSuccess: (data) => {
      queryClient.setQueryData([SECURITY_SETTINGS_URL], data);
      void queryClient.invalidateQueries({ queryKey: ['/api/security/two-factor-adoption'] });
    },
  });
}
