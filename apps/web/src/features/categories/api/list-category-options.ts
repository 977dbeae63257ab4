import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Category } from '@outlay/contracts/categories';
import type { Paginated } from '@outlay/contracts/lists';
import { apiJson } from '@/lib/api-client';
import { CATEGORIES_URL } from './keys';

/** Every category the caller may see, for the parent-category picker and filter. */
export function categoryOptionsQuery() {
  return queryOptions({
    queryKey: [CATEGORIES_URL, { picker: true }],
    queryFn: ({ signal }) =>
      apiJson<Paginated<Category>>('GET', `${CATEGORIES_URL}?pageSize=100&sort=name`, undefined, { signal }),
    select: (data) => data.items,
  });
}

export function useCategoryOptions() {
  return useQuery(categoryOptionsQuery());
}
