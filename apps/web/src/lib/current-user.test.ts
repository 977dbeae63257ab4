import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startTestServer, sendJson } from '@/testing/test-server';
import { configureApiClient } from '@/lib/api-client';
import { getAccessToken, getDeviceId, storeSession } from '@/lib/auth-storage';
import { fetchCurrentUser, needsPasswordChange } from './current-user';

const user = {
  id: 'u1',
  username: 'rita',
  firstName: 'Rita',
  lastName: 'Requester',
  email: 'rita@meridiangroup.com',
  role: 'requester',
  status: 'active',
  organizationId: null,
  departmentId: null,
  requirePasswordChange: false,
  hasChangedPassword: true,
  twoFactorEnabled: false,
  permissions: [],
};
let status = 200;
const server = await startTestServer((req, res) =>
  status === 200
    ? sendJson(res, 200, user)
    : sendJson(res, status, { message: 'Token expired', code: 'INVALID_TOKEN' }),
);
const sessionEnded = vi.fn();
beforeAll(() => configureApiClient({ baseUrl: server.url, onSessionEnded: sessionEnded }));
afterAll(() => server.close());
beforeEach(() => {
  status = 200;
  server.requests.length = 0;
  sessionEnded.mockReset();
});

describe('fetchCurrentUser (docs/product.md §6.3)', () => {
  it('gives no user and makes no call without both an access token and a device id', async () => {
    window.localStorage.setItem('accessToken', 'a');
    await expect(fetchCurrentUser()).resolves.toBeNull();
    expect(server.requests).toHaveLength(0);
  });

  it('fetches the user with bearer, device id and JSON content type, and caches it in storage', async () => {
    storeSession({ accessToken: 'a', refreshToken: 'r' }, 'd');
    await expect(fetchCurrentUser()).resolves.toMatchObject({ username: 'rita' });
    const sent = server.requests[0]!;
    expect(sent.url).toBe('/api/auth/user');
    expect(sent.headers.authorization).toBe('Bearer a');
    expect(sent.headers['x-device-id']).toBe('d');
    expect(sent.headers['content-type']).toBe('application/json');
    expect(JSON.parse(window.localStorage.getItem('user')!)).toMatchObject({ id: 'u1' });
  });

  it('clears the tokens on a 401 that no refresh can mend, and ends the session (docs/product.md §6.3: go to /auth)', async () => {
    status = 401;
    storeSession({ accessToken: 'a', refreshToken: '' }, 'd');
    window.localStorage.removeItem('refreshToken');
    await expect(fetchCurrentUser()).resolves.toBeNull();
    expect(getAccessToken()).toBeNull();
    expect(getDeviceId()).toBe('d');
    expect(sessionEnded).toHaveBeenCalledTimes(1);
  });

  it('gives a null user but keeps the tokens on other errors', async () => {
    status = 503;
    storeSession({ accessToken: 'a', refreshToken: 'r' }, 'd');
    await expect(fetchCurrentUser()).resolves.toBeNull();
    expect(getAccessToken()).toBe('a');
  });
});

describe('needsPasswordChange', () => {
  it('is true when a change is required or the password was never changed', () => {
    expect(needsPasswordChange({ requirePasswordChange: true, hasChangedPassword: true })).toBe(true);
    expect(needsPasswordChange({ requirePasswordChange: false, hasChangedPassword: false })).toBe(true);
    expect(needsPasswordChange({ requirePasswordChange: false, hasChangedPassword: true })).toBe(false);
  });
});
