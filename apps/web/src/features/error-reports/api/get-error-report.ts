import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ErrorReportDetail } from '@outlay/contracts/error-reports';
import { apiJson } from '@/lib/api-client';

export const ERROR_REPORTS_URL = '/api/error-reports';

export function fetchErrorReport(id: string, signal?: AbortSignal) {
  return apiJson<ErrorReportDetail>('GET', `${ERROR_REPORTS_URL}/${id}`, undefined, { signal });
}

/** One error group: the last stack, the people it happened to, occurrences per day. */
export function errorReportQueryOptions(id: string) {
  return queryOptions({ queryKey: [ERROR_REPORTS_URL, id], queryFn: ({ signal }) => fetchErrorReport(id, signal) });
}

export function useErrorReport(id: string | null) {
  return useQuery({ ...errorReportQueryOptions(id ?? ''), enabled: Boolean(id) });
}
