import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SavedReport, UpdateSavedReportInput } from '@outlay/contracts/reports';
import { apiJson } from '@/lib/api-client';
import { ifMatch } from '@/lib/versions';
import { REPORTS_URL } from './saved-reports';

/** `PATCH /api/reports/:id` with If-Match: refused (412) when the report changed since it was loaded. */
export function updateReport({ id, input, version }: { id: string; input: UpdateSavedReportInput; version?: number }) {
  return apiJson<SavedReport>('PATCH', `${REPORTS_URL}/${id}`, input, { headers: ifMatch(version) });
}

export function useUpdateReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateReport,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [REPORTS_URL] }),
  });
}
