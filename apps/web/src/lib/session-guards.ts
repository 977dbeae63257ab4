import { clearTokens } from './auth-storage';

/**
 * docs/product.md §6.1: `forceLogin=true` clears both stored tokens and is removed from the address.
 * Returns true when it acted, so callers can drop cached user data.
 */
export function applyForceLogin(location: Location = window.location): boolean {
  const params = new URLSearchParams(location.search);
  if (params.get('forceLogin') !== 'true') return false;
  clearTokens();
  params.delete('forceLogin');
  const search = params.toString();
  const url = `${location.pathname}${search ? `?${search}` : ''}${location.hash}`;
  window.history.replaceState(window.history.state, '', url);
  return true;
}

export function mentionsUnauthorized(reason: unknown): boolean {
  const text = reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : '';
  return /401|Unauthorized/.test(text);
}

/** docs/product.md §6.3: an unhandled rejection that mentions 401/Unauthorized ends the session. */
export function installUnhandledRejectionGuard(onUnauthorized: () => void) {
  const handler = (event: PromiseRejectionEvent) => {
    if (!mentionsUnauthorized(event.reason)) return;
    event.preventDefault();
    clearTokens();
    onUnauthorized();
  };
  window.addEventListener('unhandledrejection', handler);
  return () => window.removeEventListener('unhandledrejection', handler);
}
