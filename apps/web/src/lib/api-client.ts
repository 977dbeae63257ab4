import { navigate } from 'wouter/use-browser-location';
import type { RefreshResponse } from '@outlay/contracts/auth';
import { ApiError, errorFromResponse } from './api-error';
import { clearTokens, getAccessToken, getDeviceId, getRefreshToken, storeSession } from './auth-storage';
import { takeEarlyResponse } from './early-responses';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ApiRequestOptions {
  /** Send the stored bearer token (default). Public calls such as login turn it off. */
  auth?: boolean;
  /** On a lost session: clear and go to /auth ('redirect', default) or only clear ('clear'). */
  onSessionLost?: 'redirect' | 'clear';
  timeoutMs?: number;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

interface ApiClientConfig {
  baseUrl: string;
  /** Called after the tokens were cleared because the session could not be kept. */
  onSessionEnded: () => void;
  /** Called when the security policy holds the user until they set up two-factor (docs/product.md §2.11). */
  onTwoFactorSetupRequired: () => void;
}

const SIGNED_OUT_PAGES = [
  '/auth',
  '/landing',
  '/register',
  '/change-password',
  '/setup-2fa',
  '/auth-bridge',
  '/auth-success',
];

const config: ApiClientConfig = {
  baseUrl: '',
  onSessionEnded: () => {
    // A page that works signed out (sign-in, registration, password set-up) stays where it is.
    if (!SIGNED_OUT_PAGES.some((p) => window.location.pathname === p)) navigate('/auth');
  },
  onTwoFactorSetupRequired: () => {
    if (!window.location.pathname.startsWith('/setup-2fa')) navigate('/setup-2fa?required=true');
  },
};

export function configureApiClient(partial: Partial<ApiClientConfig>) {
  Object.assign(config, partial);
}

export function apiUrl(path: string) {
  return `${config.baseUrl}${path}`;
}

function buildSignal(options: ApiRequestOptions): AbortSignal | undefined {
  const signals: AbortSignal[] = [];
  if (options.signal) signals.push(options.signal);
  if (options.timeoutMs) signals.push(AbortSignal.timeout(options.timeoutMs));
  if (signals.length === 0) return undefined;
  return signals.length === 1 ? signals[0] : AbortSignal.any(signals);
}

function send(method: HttpMethod, url: string, data: unknown, token: string | null, options: ApiRequestOptions) {
  const headers: Record<string, string> = { ...options.headers };
  // A FormData body (file upload) goes as multipart: the browser sets the boundary header.
  const multipart = typeof FormData !== 'undefined' && data instanceof FormData;
  if (data !== undefined && !multipart) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  const deviceId = getDeviceId();
  if (deviceId) headers['X-Device-ID'] = deviceId;
  const signal = buildSignal(options);
  const request = () =>
    fetch(apiUrl(url), {
      method,
      headers,
      body: data === undefined ? undefined : multipart ? (data as FormData) : JSON.stringify(data),
      credentials: 'include',
      signal,
    });
  // The page's early script may have asked already; an early call that failed is made again, and
  // the caller's timeout and cancellation hold for it as for its own.
  const early = method === 'GET' && data === undefined ? takeEarlyResponse(url, token) : undefined;
  return early ? untilAborted(early.catch(request), signal) : request();
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason as Error);
    if (signal.aborted) return abort();
    signal.addEventListener('abort', abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

let refreshInFlight: Promise<boolean> | null = null;

async function performRefresh(): Promise<boolean> {
  const refreshToken = getRefreshToken();
  if (!refreshToken) return false;
  try {
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    const deviceId = getDeviceId();
    if (deviceId) headers['X-Device-ID'] = deviceId;
    const res = await fetch(apiUrl('/api/auth/refresh'), {
      method: 'POST',
      headers,
      body: JSON.stringify({ refreshToken }),
      credentials: 'include',
    });
    if (!res.ok) return false;
    const body = (await res.json()) as Partial<RefreshResponse>;
    // Checked by hand: the API client sits in the entry chunk, which must stay free of zod.
    if (typeof body.tokens?.accessToken !== 'string' || typeof body.tokens.refreshToken !== 'string') return false;
    storeSession(body.tokens, body.deviceId ?? deviceId);
    return true;
  } catch {
    return false;
  }
}

/**
 * Refresh tokens rotate and a reused one revokes the session, so every caller that meets a
 * 401 at the same moment shares this one refresh instead of starting its own.
 */
export function refreshSession(): Promise<boolean> {
  refreshInFlight ??= performRefresh().finally(() => {
    refreshInFlight = null;
  });
  return refreshInFlight;
}

function endSession(options: ApiRequestOptions) {
  clearTokens();
  if ((options.onSessionLost ?? 'redirect') === 'redirect') config.onSessionEnded();
}

/**
 * One call to the API with the docs/product.md §6.3 rules: bearer and device headers when stored; a 401 on a
 * call that carried a token refreshes once and retries once; otherwise the session ends.
 */
export async function apiRequest(
  method: HttpMethod,
  url: string,
  data?: unknown,
  options: ApiRequestOptions = {},
): Promise<Response> {
  const token = options.auth === false ? null : getAccessToken();
  const res = await send(method, url, data, token, options);
  if (res.status !== 401 || !token) {
    if (!res.ok) {
      const error = await errorFromResponse(res);
      if (error.status === 403 && error.code === 'TWO_FACTOR_SETUP_REQUIRED') config.onTwoFactorSetupRequired();
      throw error;
    }
    return res;
  }

  // Another call may have rotated the tokens while this one was in flight.
  const current = getAccessToken();
  const renewed = current && current !== token ? true : getRefreshToken() ? await refreshSession() : false;
  if (!renewed) {
    endSession(options);
    throw new ApiError(401, 'Unauthorized');
  }
  const retry = await send(method, url, data, getAccessToken(), options);
  if (!retry.ok) {
    // The message stays 'status: statusText'; the body's code and details are kept so callers
    // can still react to them (e.g. step-up on 403 reauth_required after a token refresh).
    const { code, details } = await errorFromResponse(retry);
    throw new ApiError(retry.status, retry.statusText || String(retry.status), { code, details });
  }
  return retry;
}

/** apiRequest plus JSON decoding, for the common case. */
export async function apiJson<T>(method: HttpMethod, url: string, data?: unknown, options?: ApiRequestOptions) {
  const res = await apiRequest(method, url, data, options);
  return (await res.json()) as T;
}

/**
 * The generic read of docs/product.md §6.6: the first key is the path, the second becomes `status`, and the
 * rest are name/value pairs, added only when both are present.
 */
export function buildQueryUrl(queryKey: readonly unknown[]): string {
  const [path, status, ...rest] = queryKey;
  const params = new URLSearchParams();
  const present = (v: unknown) => v !== undefined && v !== null && v !== '';
  if (present(status)) params.set('status', String(status));
  for (let i = 0; i + 1 < rest.length; i += 2) {
    const name = rest[i];
    const value = rest[i + 1];
    if (present(name) && present(value)) params.append(String(name), String(value));
  }
  const query = params.toString();
  const base = String(path);
  if (!query) return base;
  return `${base}${base.includes('?') ? '&' : '?'}${query}`;
}

export type UnauthorizedBehavior = 'returnNull' | 'throw';

export function getQueryFn<T>({ on401 }: { on401: UnauthorizedBehavior }) {
  return async ({ queryKey, signal }: { queryKey: readonly unknown[]; signal?: AbortSignal }): Promise<T> => {
    try {
      const res = await apiRequest('GET', buildQueryUrl(queryKey), undefined, { signal });
      return (await res.json()) as T;
    } catch (error) {
      if (on401 === 'returnNull' && error instanceof ApiError && error.status === 401) return null as T;
      throw error;
    }
  };
}
