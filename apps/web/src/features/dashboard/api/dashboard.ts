import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ActivityFeed, DashboardResponse, ExpenseScope, ExpenseTracking } from '@outlay/contracts/dashboard';
import { apiJson } from '@/lib/api-client';

/** Endpoints of the dashboard feature; every query key starts with one of them. */
export const DASHBOARD_URL = '/api/dashboard';
export const ACTIVITY_URL = '/api/dashboard/activity';
export const EXPENSE_TRACKING_URL = '/api/expense-tracking';

/** `GET /api/dashboard`: the sections the caller's permissions allow, computed and scoped by the server. */
export function dashboardQueryOptions() {
  return queryOptions({
    queryKey: [DASHBOARD_URL],
    queryFn: ({ signal }) => apiJson<DashboardResponse>('GET', DASHBOARD_URL, undefined, { signal }),
    staleTime: 30_000,
  });
}

export function useDashboard() {
  return useQuery(dashboardQueryOptions());
}

export const ACTIVITY_PAGE_SIZE = 15;

/** `GET /api/dashboard/activity`: the newest timeline events of requests the caller may see. */
export function activityQueryOptions(pageSize = ACTIVITY_PAGE_SIZE) {
  return queryOptions({
    queryKey: [ACTIVITY_URL, { pageSize }],
    queryFn: ({ signal }) =>
      apiJson<ActivityFeed>('GET', `${ACTIVITY_URL}?page=1&pageSize=${pageSize}`, undefined, { signal }),
    staleTime: 30_000,
  });
}

export function useActivity(pageSize = ACTIVITY_PAGE_SIZE) {
  return useQuery(activityQueryOptions(pageSize));
}

export interface ExpenseTrackingParams {
  scope: ExpenseScope;
  from?: string;
  to?: string;
}

/** `GET /api/expense-tracking`: approved and paid by month, receipts and budget for one scope. */
export function expenseTrackingQueryOptions(params: ExpenseTrackingParams) {
  const qs = new URLSearchParams({ scope: params.scope });
  if (params.from) qs.set('from', params.from);
  if (params.to) qs.set('to', params.to);
  return queryOptions({
    queryKey: [EXPENSE_TRACKING_URL, params],
    queryFn: ({ signal }) =>
      apiJson<ExpenseTracking>('GET', `${EXPENSE_TRACKING_URL}?${qs.toString()}`, undefined, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useExpenseTracking(params: ExpenseTrackingParams) {
  return useQuery(expenseTrackingQueryOptions(params));
}
