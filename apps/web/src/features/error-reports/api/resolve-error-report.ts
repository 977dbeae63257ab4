import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ErrorReportDetail } from '@outlay/contracts/error-reports';
import { apiJson } from '@/lib/api-client';
import { ERROR_REPORTS_URL } from './get-error-report';

/** Marks a group fixed; the server reopens it as regressed if it happens again. */
export function resolveErrorReport(id: string) {
  return apiJson<ErrorReportDetail>('POST', `${ERROR_REPORTS_URL}/${id}/resolve`);
}

export function useResolveErrorReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resolveErrorReport,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [ERROR_REPORTS_URL] }),
  });
}
