import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Profile, UpdateProfileInput } from '@outlay/contracts/auth';
import { apiJson } from '@/lib/api-client';
import { CURRENT_USER_KEY } from '@/lib/current-user';

export const PROFILE_KEY = ['/api/profile'] as const;

export function profileQueryOptions() {
  // The generic query function of docs/product.md §6.6 reads the path from the key.
  return queryOptions<Profile>({ queryKey: PROFILE_KEY });
}

export function useProfile(enabled = true) {
  return useQuery({ ...profileQueryOptions(), enabled });
}

export function updateProfile(input: UpdateProfileInput) {
  return apiJson<Profile>('PUT', '/api/profile', input);
}

/** docs/product.md §6.6: a saved profile refreshes both the profile and the current user. */
export function useUpdateProfileMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: (profile) => {
      queryClient.setQueryData(PROFILE_KEY, profile);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: PROFILE_KEY }),
        queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY }),
      ]);
    },
  });
}
