import { ERROR_REPORT_LIMITS } from '@outlay/contracts/error-reports.limits';
import { apiUrl } from './api-client';
import { isApiError } from './api-error';
import { getAccessToken, getDeviceId } from './auth-storage';
import { mentionsUnauthorized } from './session-guards';

/** One page load reports at most this many errors: a render loop must not flood the server. */
const MAX_REPORTS_PER_PAGE = 20;
const reported = new Set<string>();

/** Cut to `max` UTF-16 units without leaving half a surrogate pair, which the server refuses as broken Unicode. */
export function truncate(value: string | undefined | null, max: number): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (value.length <= max) return value;
  const cut = value.slice(0, max);
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}

/**
 * Sends an uncaught error or render failure to the server's error inbox (ARCHITECTURE.md §8).
 * Best effort: a failure to report must never cause a second failure. The same error is sent
 * once per page load.
 */
export function reportClientError(error: Error, componentStack?: string) {
  try {
    const key = `${error.message}\n${error.stack ?? ''}`;
    if (reported.has(key) || reported.size >= MAX_REPORTS_PER_PAGE) return;
    reported.add(key);
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    const token = getAccessToken();
    const deviceId = getDeviceId();
    if (token) headers.Authorization = `Bearer ${token}`;
    if (deviceId) headers['X-Device-ID'] = deviceId;
    void fetch(apiUrl('/api/error-reports'), {
      method: 'POST',
      headers,
      keepalive: true,
      body: JSON.stringify({
        message: truncate(error.message || error.name || 'Unknown error', ERROR_REPORT_LIMITS.message),
        stack: truncate(error.stack, ERROR_REPORT_LIMITS.stack),
        componentStack: truncate(componentStack, ERROR_REPORT_LIMITS.componentStack),
        route: truncate(window.location.pathname, ERROR_REPORT_LIMITS.route),
        userAgent: truncate(navigator.userAgent, ERROR_REPORT_LIMITS.userAgent),
      }),
    }).catch(() => undefined);
  } catch {
    // Reporting is best effort.
  }
}

/**
 * Reports what no error boundary catches: errors thrown from event handlers and timers, and
 * rejected promises nobody handled. A refused API call is the server's answer, already shown
 * to the person (and a 401 ends the session), so it is not an error of the app.
 */
export function installErrorReporting(target: Window = window) {
  const onError = (event: ErrorEvent) => {
    if (event.error instanceof Error) reportClientError(event.error);
    else if (event.message) reportClientError(new Error(event.message));
  };
  const onRejection = (event: PromiseRejectionEvent) => {
    const reason: unknown = event.reason;
    if (
      !(reason instanceof Error) ||
      isApiError(reason) ||
      mentionsUnauthorized(reason) ||
      reason.name === 'AbortError'
    )
      return;
    reportClientError(reason);
  };
  target.addEventListener('error', onError);
  target.addEventListener('unhandledrejection', onRejection);
  return () => {
    target.removeEventListener('error', onError);
    target.removeEventListener('unhandledrejection', onRejection);
  };
}
