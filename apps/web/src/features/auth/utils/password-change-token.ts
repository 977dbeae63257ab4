/**
 * The single-use proof for a first-time password change (docs/product.md §2.1). Kept in sessionStorage
 * only: it dies with the tab and is never written to localStorage with the long-lived tokens.
 */
const KEY = 'outlay.passwordChangeToken';

export function savePasswordChangeToken(userId: string, token: string) {
  try {
    window.sessionStorage.setItem(KEY, JSON.stringify({ userId, token }));
  } catch {
    // Without storage the change screen falls back to an existing session, if any.
  }
}

export function readPasswordChangeToken(userId: string): string | undefined {
  try {
    const raw = window.sessionStorage.getItem(KEY);
    if (!raw) return undefined;
    const stored = JSON.parse(raw) as { userId?: string; token?: string };
    return stored.userId === userId ? stored.token : undefined;
  } catch {
    return undefined;
  }
}

export function clearPasswordChangeToken() {
  try {
    window.sessionStorage.removeItem(KEY);
  } catch {
    // Nothing to remove.
  }
}
