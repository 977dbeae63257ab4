import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Department } from '@outlay/contracts/organizations';
import type { Paginated } from '@outlay/contracts/lists';
import { apiJson } from '@/lib/api-client';
import { DEPARTMENTS_URL } from './keys';

/** The departments of one organization, for the parent-department picker. */
export function departmentOptionsQuery(organizationId: string) {
  return queryOptions({
    queryKey: [DEPARTMENTS_URL, { picker: organizationId }],
    queryFn: ({ signal }) =>
      apiJson<Paginated<Department>>(
        'GET',
        `${DEPARTMENTS_URL}?pageSize=100&sort=name&organizationId=${encodeURIComponent(organizationId)}`,
        undefined,
        { signal },
      ),
    select: (data) => data.items,
  });
}

export function useDepartmentOptions(organizationId: string | null | undefined) {
  return useQuery({ ...departmentOptionsQuery(organizationId ?? ''), enabled: Boolean(organizationId) });
}

/** Every department in the caller's scope, of all its organizations (a filter before an organization is chosen). */
export function scopeDepartmentOptionsQuery() {
  return queryOptions({
    queryKey: [DEPARTMENTS_URL, { picker: 'scope' }],
    queryFn: ({ signal }) =>
      apiJson<Paginated<Department>>('GET', `${DEPARTMENTS_URL}?pageSize=100&sort=name`, undefined, { signal }),
    select: (data) => data.items,
  });
}

export function useScopeDepartmentOptions(enabled = true) {
  return useQuery({ ...scopeDepartmentOptionsQuery(), enabled });
}
