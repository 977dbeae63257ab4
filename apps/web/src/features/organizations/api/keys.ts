import type { QueryClient } from '@tanstack/react-query';

/** Endpoints of this feature; every query key starts with one of them. */
export const ORGANIZATIONS_URL = '/api/organizations';
export const ORGANIZATION_TREE_URL = '/api/organizations/tree';
export const DEPARTMENTS_URL = '/api/departments';
export const CATEGORIES_URL = '/api/categories';
export const FX_RATES_URL = '/api/fx-rates';
export const INTERCOMPANY_LINKS_URL = '/api/intercompany-links';

/** Refreshes every view of the given endpoints (lists, pickers, the tree). */
export function invalidate(queryClient: QueryClient, ...urls: string[]) {
  return Promise.all(urls.map((url) => queryClient.invalidateQueries({ queryKey: [url] })));
}
