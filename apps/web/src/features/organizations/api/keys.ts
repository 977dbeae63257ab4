/** Endpoints of this feature; every query key starts with one of them. */
export const ORGANIZATIONS_URL = '/api/organizations';
export const ORGANIZATION_TREE_URL = '/api/organizations/tree';
export const DEPARTMENTS_URL = '/api/departments';
export const INTERCOMPANY_LINKS_URL = '/api/intercompany-links';

/** Refreshes every view of the given endpoints (lists, pickers, the tree). */
export { invalidateUrls as invalidate } from '@/lib/query-client';
