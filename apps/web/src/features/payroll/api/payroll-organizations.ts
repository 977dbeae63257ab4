import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PayrollOrganization } from '@outlay/contracts/payroll';
import { apiJson } from '@/lib/api-client';

export const PAYROLL_ORGANIZATIONS_URL = '/api/payroll/organizations';

/** Organizations the caller keeps payroll for, with their departments and users (the forms' choices). */
export function payrollOrganizationsQueryOptions() {
  return queryOptions({
    queryKey: [PAYROLL_ORGANIZATIONS_URL],
    queryFn: ({ signal }) =>
      apiJson<{ items: PayrollOrganization[] }>('GET', PAYROLL_ORGANIZATIONS_URL, undefined, { signal }),
    staleTime: 60_000,
  });
}

export function usePayrollOrganizations(enabled = true) {
  return useQuery({ ...payrollOrganizationsQueryOptions(), enabled });
}
