/*
 * The organizations feature's public face: what other features and the app shell use of it. Its pages are
 * reached through the route catalogue, never from here.
 */
export { useDepartmentOptions, useScopeDepartmentOptions } from './api/department-options';
export { useOrganizationOptions } from './api/organization-options';
