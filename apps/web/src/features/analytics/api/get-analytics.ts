import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AnalyticsResponse } from '@outlay/contracts/analytics';

export const ANALYTICS_URL = '/api/analytics';

export interface AnalyticsParams {
  from: string;
  to: string;
  organizationId?: string;
  departmentId?: string;
  categoryId?: string;
}

/** Spend trend, top lists, approval rates and cycle times for a period, in the group currency. */
export function analyticsQueryOptions(p: AnalyticsParams) {
  return queryOptions<AnalyticsResponse>({
    // The generic query function: [path, status, name, value, …].
    queryKey: [
      ANALYTICS_URL,
      undefined,
      'from',
      p.from,
      'to',
      p.to,
      'organizationId',
      p.organizationId,
      'departmentId',
      p.departmentId,
      'categoryId',
      p.categoryId,
    ],
    placeholderData: keepPreviousData,
  });
}

export function useAnalytics(p: AnalyticsParams) {
  return useQuery(analyticsQueryOptions(p));
}
