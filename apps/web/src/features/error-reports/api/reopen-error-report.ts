import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ErrorReportDetail } from '@outlay/contracts/error-reports';
import { apiJson } from '@/lib/api-client';
import { ERROR_REPORTS_URL } from './get-error-report';

export function reopenErrorReport(id: string) {
  return apiJson<ErrorReportDetail>('POST', `${ERROR_REPORTS_URL}/${id}/reopen`);
}

export function useReopenErrorReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: reopenErrorReport,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [ERROR_REPORTS_URL] }),
  });
}
