import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { ifMatch } from '@/lib/versions';
import { REPORTS_URL } from './saved-reports';

/** `DELETE /api/reports/:id` (its owner only). */
export async function deleteReport({ id, version }: { id: string; version?: number }) {
  await apiRequest('DELETE', `${REPORTS_URL}/${id}`, undefined, { headers: ifMatch(version) });
}

export function useDeleteReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteReport,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [REPORTS_URL] }),
  });
}
