/*
 * The delegations feature's public face: what other features and the app shell use of it. Its pages are
 * reached through the route catalogue, never from here.
 */
export { useCreateDelegation } from './api/create-delegation';
export { useDelegations } from './api/list-delegations';
export { useRevokeDelegation } from './api/revoke-delegation';
