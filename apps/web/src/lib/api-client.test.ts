import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startTestServer, sendJson, sendText, type RecordedRequest } from '@/testing/test-server';
import { apiRequest, buildQueryUrl, configureApiClient, getQueryFn } from './api-client';
import { ApiError } from './api-error';
import { getAccessToken, getDeviceId, getRefreshToken, storeSession } from './auth-storage';
import { closeEarlyResponses, EARLY_RESPONSES_GLOBAL } from './early-responses';

/**
 * Routes of the fake API. Access tokens look like `access-N`; the server accepts only the
 * newest one, like the real rotation does.
 */
let currentAccess = 'access-1';
let refreshCount = 0;
let refreshShouldFail = false;
let refreshDelayMs = 0;

const server = await startTestServer(async (req: RecordedRequest, res) => {
  const auth = req.headers.authorization;
  const path = req.url.split('?')[0];
  if (path === '/api/auth/refresh') {
    refreshCount += 1;
    if (refreshDelayMs) await new Promise((r) => setTimeout(r, refreshDelayMs));
    if (refreshShouldFail) return sendJson(res, 401, { message: 'Refresh token reused', code: 'SESSION_REVOKED' });
    currentAccess = `access-${refreshCount + 1}`;
    return sendJson(res, 200, {
      tokens: { accessToken: currentAccess, refreshToken: `refresh-${refreshCount + 1}` },
      deviceId: 'device-2',
    });
  }
  if (path === '/api/protected') {
    if (auth !== `Bearer ${currentAccess}`)
      return sendJson(res, 401, { message: 'Token expired', code: 'INVALID_TOKEN' });
    return sendJson(res, 200, { ok: true, auth });
  }
  if (path === '/api/always-401') return sendJson(res, 401, { message: 'Nope', code: 'UNAUTHORIZED' });
  if (path === '/api/protected-then-500') {
    if (auth !== `Bearer ${currentAccess}`) return sendJson(res, 401, { message: 'Token expired' });
    res.statusCode = 500;
    res.statusMessage = 'Internal Server Error';
    return res.end('boom');
  }
  if (path === '/api/plain-400') return sendText(res, 400, 'Please enter both username and password');
  if (path === '/api/json-409')
    return sendJson(res, 409, {
      message: 'You already have a pending registration request',
      code: 'REGISTRATION_EXISTS',
    });
  if (path === '/api/empty-404') {
    res.statusCode = 404;
    res.statusMessage = 'Not Found';
    return res.end();
  }
  if (path === '/api/echo') return sendJson(res, 200, { url: req.url });
  if (path === '/api/needs-2fa')
    return sendJson(res, 403, {
      message: 'Set up two-factor authentication to continue',
      code: 'TWO_FACTOR_SETUP_REQUIRED',
    });
  return sendJson(res, 404, { message: 'Not found' });
});

const sessionEnded = vi.fn();
const twoFactorRequired = vi.fn();

beforeAll(() =>
  configureApiClient({
    baseUrl: server.url,
    onSessionEnded: sessionEnded,
    onTwoFactorSetupRequired: twoFactorRequired,
  }),
);
afterAll(() => server.close());

beforeEach(() => {
  currentAccess = 'access-1';
  refreshCount = 0;
  refreshShouldFail = false;
  refreshDelayMs = 0;
  sessionEnded.mockReset();
  server.requests.length = 0;
  closeEarlyResponses();
});

function signIn(access = 'access-1', refresh: string | null = 'refresh-1') {
  storeSession({ accessToken: access, refreshToken: refresh ?? '' }, 'device-1');
  if (refresh === null) window.localStorage.removeItem('refreshToken');
}

describe('headers', () => {
  it('sends the bearer token and device id when stored', async () => {
    signIn();
    await apiRequest('GET', '/api/protected');
    const sent = server.requests[0]!;
    expect(sent.headers.authorization).toBe('Bearer access-1');
    expect(sent.headers['x-device-id']).toBe('device-1');
  });

  it('sends neither when nothing is stored, and JSON content type only with a body', async () => {
    await apiRequest('GET', '/api/echo');
    await apiRequest('POST', '/api/echo', { a: 1 });
    expect(server.requests[0]!.headers.authorization).toBeUndefined();
    expect(server.requests[0]!.headers['x-device-id']).toBeUndefined();
    expect(server.requests[0]!.headers['content-type']).toBeUndefined();
    expect(server.requests[1]!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(server.requests[1]!.body)).toEqual({ a: 1 });
  });

  it('public calls never send a stored bearer token', async () => {
    signIn();
    await apiRequest('POST', '/api/echo', {}, { auth: false });
    expect(server.requests[0]!.headers.authorization).toBeUndefined();
  });
});

describe("answers the page's early script asked for", () => {
  const early = (token: string, responses: Record<string, Promise<Response>>) => {
    window[EARLY_RESPONSES_GLOBAL] = { token, responses };
  };

  it('a GET of the path with the same token takes the answer once; the next goes to the network', async () => {
    signIn();
    early('access-1', {
      '/api/protected': Promise.resolve(new Response(JSON.stringify({ early: true }), { status: 200 })),
    });
    expect(await (await apiRequest('GET', '/api/protected')).json()).toEqual({ early: true });
    expect(server.requests).toHaveLength(0);
    expect(await (await apiRequest('GET', '/api/protected')).json()).toEqual({ ok: true, auth: 'Bearer access-1' });
    expect(server.requests).toHaveLength(1);
  });

  it('an answer for another token, a closed set, or another method is not used', async () => {
    signIn();
    early('access-0', { '/api/protected': Promise.resolve(new Response('{}', { status: 200 })) });
    expect(await (await apiRequest('GET', '/api/protected')).json()).toEqual({ ok: true, auth: 'Bearer access-1' });
    early('access-1', { '/api/echo': Promise.resolve(new Response('{}', { status: 200 })) });
    expect(await (await apiRequest('POST', '/api/echo', { a: 1 })).json()).toEqual({ url: '/api/echo' });
    closeEarlyResponses();
    expect(await (await apiRequest('GET', '/api/echo')).json()).toEqual({ url: '/api/echo' });
    expect(server.requests).toHaveLength(3);
  });

  it('an early 401 refreshes and retries as its own would; an early network failure is asked again', async () => {
    signIn('stale-access');
    currentAccess = 'access-2';
    early('stale-access', {
      '/api/protected': Promise.resolve(new Response('{"message":"Token expired"}', { status: 401 })),
    });
    expect((await apiRequest('GET', '/api/protected')).status).toBe(200);
    expect(refreshCount).toBe(1);
    early('access-2', { '/api/echo': Promise.reject(new TypeError('Failed to fetch')) });
    expect(await (await apiRequest('GET', '/api/echo')).json()).toEqual({ url: '/api/echo' });
  });

  it("the caller's timeout holds for an early answer that never comes", async () => {
    signIn();
    early('access-1', { '/api/protected': new Promise<Response>(() => undefined) });
    await expect(apiRequest('GET', '/api/protected', undefined, { timeoutMs: 50 })).rejects.toThrow();
  });
});

describe('refresh on 401', () => {
  it('refreshes once, stores the new tokens and device id, and retries the original call', async () => {
    signIn('stale-access');
    currentAccess = 'access-2';
    refreshCount = 0;
    // The refresh answers access-2 (refreshCount + 1).
    const res = await apiRequest('GET', '/api/protected');
    expect(res.status).toBe(200);
    expect(refreshCount).toBe(1);
    const refreshCall = server.requests.find((r) => r.url === '/api/auth/refresh')!;
    expect(refreshCall.method).toBe('POST');
    expect(refreshCall.headers.authorization).toBeUndefined();
    expect(JSON.parse(refreshCall.body)).toEqual({ refreshToken: 'refresh-1' });
    expect(getAccessToken()).toBe('access-2');
    expect(getRefreshToken()).toBe('refresh-2');
    expect(getDeviceId()).toBe('device-2');
    const retried = server.requests.at(-1)!;
    expect(retried.url).toBe('/api/protected');
    expect(retried.headers.authorization).toBe('Bearer access-2');
    expect(sessionEnded).not.toHaveBeenCalled();
  });

  it('shares one refresh between calls that fail at the same moment (rotation safety)', async () => {
    signIn('stale-access');
    currentAccess = 'access-2';
    refreshDelayMs = 50;
    const results = await Promise.all([
      apiRequest('GET', '/api/protected'),
      apiRequest('GET', '/api/protected'),
      apiRequest('GET', '/api/protected'),
    ]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(refreshCount).toBe(1);
  });

  it('clears the tokens and ends the session when the refresh is refused', async () => {
    signIn('stale-access');
    refreshShouldFail = true;
    await expect(apiRequest('GET', '/api/protected')).rejects.toThrow('401: Unauthorized');
    expect(getAccessToken()).toBeNull();
    expect(getRefreshToken()).toBeNull();
    expect(sessionEnded).toHaveBeenCalledTimes(1);
  });

  it("gives '401: Unauthorized' without calling refresh when no refresh token is stored", async () => {
    signIn('stale-access', null);
    const error = await apiRequest('GET', '/api/protected').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('401: Unauthorized');
    expect(refreshCount).toBe(0);
    expect(getAccessToken()).toBeNull();
    expect(sessionEnded).toHaveBeenCalledTimes(1);
  });

  it('only clears, without redirecting, when asked to (the current-user check)', async () => {
    signIn('stale-access', null);
    await expect(apiRequest('GET', '/api/protected', undefined, { onSessionLost: 'clear' })).rejects.toThrow('401');
    expect(getAccessToken()).toBeNull();
    expect(sessionEnded).not.toHaveBeenCalled();
  });

  it("reports 'status: statusText' when the retry after a refresh still fails", async () => {
    signIn('stale-access');
    await expect(apiRequest('GET', '/api/protected-then-500')).rejects.toThrow('500: Internal Server Error');
    expect(refreshCount).toBe(1);
  });

  it('does not refresh a 401 on a call that carried no token (a refused login)', async () => {
    await expect(apiRequest('GET', '/api/always-401')).rejects.toThrow('401: Nope');
    expect(refreshCount).toBe(0);
    expect(sessionEnded).not.toHaveBeenCalled();
  });
});

describe('error text', () => {
  it("formats a plain-text body as 'status: body text' and keeps the bare text", async () => {
    const error = (await apiRequest('POST', '/api/plain-400', {}).catch((e: unknown) => e)) as ApiError;
    expect(error.message).toBe('400: Please enter both username and password');
    expect(error.serverMessage).toBe('Please enter both username and password');
    expect(error.status).toBe(400);
  });

  it('uses the message field of a JSON error body', async () => {
    const error = (await apiRequest('POST', '/api/json-409', {}).catch((e: unknown) => e)) as ApiError;
    expect(error.message).toBe('409: You already have a pending registration request');
    expect(error.serverMessage).toBe('You already have a pending registration request');
    expect(error.code).toBe('REGISTRATION_EXISTS');
  });

  it('sends a user the policy holds to two-factor setup, and still rejects the call', async () => {
    signIn();
    twoFactorRequired.mockReset();
    const error = (await apiRequest('GET', '/api/needs-2fa').catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(403);
    expect(error.code).toBe('TWO_FACTOR_SETUP_REQUIRED');
    expect(twoFactorRequired).toHaveBeenCalledTimes(1);
    expect(sessionEnded).not.toHaveBeenCalled();
  });

  it('falls back to the status text when the body is empty', async () => {
    await expect(apiRequest('GET', '/api/empty-404')).rejects.toThrow('404: Not Found');
  });
});

describe('generic query function', () => {
  it('builds the URL from the key: path, status, then name/value pairs present on both sides', () => {
    expect(buildQueryUrl(['/api/requests'])).toBe('/api/requests');
    expect(buildQueryUrl(['/api/requests', 'pending'])).toBe('/api/requests?status=pending');
    expect(buildQueryUrl(['/api/requests', undefined, 'page', 2, 'q', ''])).toBe('/api/requests?page=2');
    expect(buildQueryUrl(['/api/requests', 'approved', 'org', 'o1', 'dangling'])).toBe(
      '/api/requests?status=approved&org=o1',
    );
    expect(buildQueryUrl(['/api/x?a=1', 'draft'])).toBe('/api/x?a=1&status=draft');
  });

  it('issues a GET to the built URL with the session headers', async () => {
    signIn('access-1');
    const fn = getQueryFn<{ url: string }>({ on401: 'throw' });
    const data = await fn({ queryKey: ['/api/echo', 'pending', 'page', 3] });
    expect(data.url).toBe('/api/echo?status=pending&page=3');
    expect(server.requests[0]!.headers.authorization).toBe('Bearer access-1');
  });

  it('returns null on 401 only when asked to', async () => {
    const lenient = getQueryFn<null>({ on401: 'returnNull' });
    await expect(lenient({ queryKey: ['/api/always-401'] })).resolves.toBeNull();
    const strict = getQueryFn({ on401: 'throw' });
    await expect(strict({ queryKey: ['/api/always-401'] })).rejects.toThrow('401');
  });
});
