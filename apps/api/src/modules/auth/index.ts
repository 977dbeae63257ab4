// The auth module's public face: what the app, the jobs, the plugins and other modules use.
// Outside this folder, import the module from here; files inside it import each other directly.
export { authRoutes } from './auth.routes.ts';
export { recordDeviceMismatch } from './auth.device-mismatch.ts';
export {
  prepareSessionLookup,
  revokeOtherSessions,
  revokeSession,
  type SessionRow,
  touchSession,
} from './auth.sessions.repository.ts';
export { lockOf, releaseAttempt, reserveAttempt, secondsUntil } from './auth.throttle.repository.ts';
export { findUserById, type UserRow } from './auth.accounts.repository.ts';
