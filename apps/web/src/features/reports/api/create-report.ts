import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateSavedReportFormInput, SavedReport } from '@outlay/contracts/reports';
import { apiJson } from '@/lib/api-client';
import { REPORTS_URL } from './saved-reports';

/** `POST /api/reports`: saves a definition with its sharing and schedule. */
export function createReport(input: CreateSavedReportFormInput) {
  return apiJson<SavedReport>('POST', REPORTS_URL, input);
}

export function useCreateReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createReport,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [REPORTS_URL] }),
  });
}
