import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Organization } from '@outlay/contracts/organizations';
import type { Paginated } from '@outlay/contracts/lists';
import { apiJson } from '@/lib/api-client';
import { ORGANIZATIONS_URL } from './keys';

/** Every organization the caller may see, for pickers (the group has a handful). */
export function organizationOptionsQuery() {
  return queryOptions({
    queryKey: [ORGANIZATIONS_URL, { picker: true }],
    queryFn: ({ signal }) =>
      apiJson<Paginated<Organization>>('GET', `${ORGANIZATIONS_URL}?pageSize=100&sort=name`, undefined, { signal }),
    select: (data) => data.items,
  });
}

export function useOrganizationOptions() {
  return useQuery(organizationOptionsQuery());
}
