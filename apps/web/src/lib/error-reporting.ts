import { apiUrl } from './api-client';
import { getAccessToken, getDeviceId } from './auth-storage';

/**
 * Sends a render failure to the server's error inbox (ARCHITECTURE §12). Best effort: a
 * failure to report must never cause a second failure.
 */
export function reportClientError(error: Error, componentStack?: string) {
  try {
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
        message: error.message.slice(0, 1000),
        stack: error.stack?.slice(0, 8000),
        componentStack: componentStack?.slice(0, 8000),
        route: window.location.pathname,
        userAgent: navigator.userAgent,
      }),
    }).catch(() => undefined);
  } catch {
    // Reporting is best effort.
  }
}
