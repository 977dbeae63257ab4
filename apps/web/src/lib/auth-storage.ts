import type { AuthTokens, CurrentUser } from '@outlay/contracts/auth';

/** The client-stored session of docs/product.md §6.2, in localStorage under these keys. */
export const STORAGE_KEYS = {
  accessToken: 'accessToken',
  refreshToken: 'refreshToken',
  deviceId: 'deviceId',
  user: 'user',
} as const;

type Listener = () => void;
const listeners = new Set<Listener>();

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function notify() {
  for (const listener of listeners) listener();
}

export function getAccessToken() {
  return read(STORAGE_KEYS.accessToken);
}

export function getRefreshToken() {
  return read(STORAGE_KEYS.refreshToken);
}

export function getDeviceId() {
  return read(STORAGE_KEYS.deviceId);
}

/** docs/product.md §6.3: a session is valid only when both an access token and a device id are stored. */
export function hasValidSession() {
  return Boolean(getAccessToken() && getDeviceId());
}

/** Throws when storage is unavailable (private mode, quota) so login can say so. */
export function storeSession(tokens: AuthTokens, deviceId?: string | null) {
  window.localStorage.setItem(STORAGE_KEYS.accessToken, tokens.accessToken);
  window.localStorage.setItem(STORAGE_KEYS.refreshToken, tokens.refreshToken);
  if (deviceId) window.localStorage.setItem(STORAGE_KEYS.deviceId, deviceId);
  notify();
}

export function storeUser(user: CurrentUser) {
  try {
    window.localStorage.setItem(STORAGE_KEYS.user, JSON.stringify(user));
  } catch {
    // The cached copy is a convenience; the server stays the source of truth.
  }
}

/** Clears both tokens (forceLogin, 401); the device id stays so the browser keeps its identity. */
export function clearTokens() {
  try {
    window.localStorage.removeItem(STORAGE_KEYS.accessToken);
    window.localStorage.removeItem(STORAGE_KEYS.refreshToken);
    window.localStorage.removeItem(STORAGE_KEYS.user);
  } catch {
    // Nothing stored that we could remove.
  }
  notify();
}

/** Removes every piece of the stored session (logout failure path, docs/product.md §6.3). */
export function clearSession() {
  try {
    for (const key of Object.values(STORAGE_KEYS)) window.localStorage.removeItem(key);
  } catch {
    // Nothing stored that we could remove.
  }
  notify();
}

/** A cheap snapshot for useSyncExternalStore: changes whenever the session does. */
export function sessionSnapshot() {
  return hasValidSession() ? `${getAccessToken()}|${getDeviceId()}` : '';
}

export function subscribeSession(listener: Listener) {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || Object.values<string>(STORAGE_KEYS).includes(event.key)) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}
