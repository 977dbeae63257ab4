import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ReportRecipients } from '@outlay/contracts/reports';
import { apiJson } from '@/lib/api-client';
import { REPORTS_URL } from './saved-reports';

const URL = `${REPORTS_URL}/recipients`;

/** `GET /api/reports/recipients?q`: people who can read reports, to share one with. */
export function reportRecipientsQueryOptions(q: string) {
  const term = q.trim();
  return queryOptions({
    queryKey: [URL, term],
    queryFn: ({ signal }) =>
      apiJson<ReportRecipients>('GET', term ? `${URL}?q=${encodeURIComponent(term)}` : URL, undefined, { signal }),
    select: (data) => data.items,
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });
}

export function useReportRecipients(q: string, enabled = true) {
  return useQuery({ ...reportRecipientsQueryOptions(q), enabled });
}
