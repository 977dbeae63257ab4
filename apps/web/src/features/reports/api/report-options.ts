import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ReportOptions } from '@outlay/contracts/reports';
import { apiJson } from '@/lib/api-client';
import { REPORTS_URL } from './saved-reports';

const URL = `${REPORTS_URL}/options`;

/** `GET /api/reports/options`: organizations, departments, categories and vendors in the caller's scope. */
export function reportOptionsQueryOptions() {
  return queryOptions({
    queryKey: [URL],
    queryFn: ({ signal }) => apiJson<ReportOptions>('GET', URL, undefined, { signal }),
    staleTime: 5 * 60_000,
  });
}

export function useReportOptions() {
  return useQuery(reportOptionsQueryOptions());
}
