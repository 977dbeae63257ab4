import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FindingList } from '@outlay/contracts/findings';
import { apiJson } from '@/lib/api-client';
import { FINDINGS_URL, findingsQueryOptions, type FindingFilters } from './findings';

/** Recomputes now the findings of the caller's organizations that changed since (the job otherwise does within minutes of a change). */
export function refreshFindings(filters: FindingFilters) {
  const params = new URLSearchParams({ status: filters.status, months: String(filters.months) });
  if (filters.kind) params.set('kind', filters.kind);
  return apiJson<FindingList>('POST', `${FINDINGS_URL}/refresh?${params}`);
}

export function useRefreshFindings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: refreshFindings,
    onSuccess: (list, filters) => {
      // The other filters' lists were read from the findings just replaced: read again when shown.
      void queryClient.invalidateQueries({ queryKey: [FINDINGS_URL], refetchType: 'none' });
      queryClient.setQueryData(findingsQueryOptions(filters).queryKey, list);
    },
  });
}
