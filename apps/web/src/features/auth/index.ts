/*
 * The auth feature's public face: what other features and the app shell use of it. Its pages are
 * reached through the route catalogue, never from here.
 */
export { useChangePasswordMutation } from './api/change-password';
export { useLogout } from './api/logout';
export { useDisableTwoFactorMutation } from './api/two-factor';
