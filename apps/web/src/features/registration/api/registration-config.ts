import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RegistrationConfig } from '@outlay/contracts/registration-requests';
import { apiJson } from '@/lib/api-client';

export const REGISTRATION_CONFIG_KEY = ['/api/registration-requests/config'] as const;

export function getRegistrationConfig() {
  return apiJson<RegistrationConfig>('GET', REGISTRATION_CONFIG_KEY[0], undefined, { auth: false });
}

export function registrationConfigQueryOptions() {
  return queryOptions({ queryKey: REGISTRATION_CONFIG_KEY, queryFn: getRegistrationConfig });
}

export function useRegistrationConfig() {
  return useQuery(registrationConfigQueryOptions());
}
