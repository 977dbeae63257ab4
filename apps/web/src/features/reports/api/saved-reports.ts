import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SavedReportList } from '@outlay/contracts/reports';
import { apiJson } from '@/lib/api-client';

/** Also the first element of every report query key, so a save refreshes them all. */
export const REPORTS_URL = '/api/reports';

/** `GET /api/reports`: the caller's reports and those shared with them. */
export function savedReportsQueryOptions() {
  return queryOptions({
    queryKey: [REPORTS_URL],
    queryFn: ({ signal }) => apiJson<SavedReportList>('GET', REPORTS_URL, undefined, { signal }),
  });
}

export function useSavedReports() {
  return useQuery(savedReportsQueryOptions());
}
