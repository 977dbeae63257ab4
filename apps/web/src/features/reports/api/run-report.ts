import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ReportDefinitionInput, ReportResult } from '@outlay/contracts/reports';
import { apiJson } from '@/lib/api-client';
import { REPORTS_URL } from './saved-reports';

const URL = `${REPORTS_URL}/run`;

/** `POST /api/reports/run`: a definition's rows and totals in the group currency, within the caller's scope. */
export function runReport(definition: ReportDefinitionInput, signal?: AbortSignal) {
  return apiJson<ReportResult>('POST', URL, { definition }, { signal });
}

export function runReportQueryOptions(definition: ReportDefinitionInput | null) {
  return queryOptions({
    queryKey: [URL, definition],
    queryFn: ({ signal }) => runReport(definition!, signal),
    enabled: definition !== null,
    placeholderData: keepPreviousData,
    // A refused definition (400) will not pass on a second try.
    retry: false,
  });
}

export function useRunReport(definition: ReportDefinitionInput | null) {
  return useQuery(runReportQueryOptions(definition));
}
