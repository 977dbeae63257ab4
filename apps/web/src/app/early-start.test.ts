import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearTokens, storeSession } from '@/lib/auth-storage';
import { startEarly } from './early-start';

function spiedClient() {
  const client = new QueryClient();
  const prefetch = vi.spyOn(client, 'prefetchQuery').mockResolvedValue(undefined);
  const keys = () => prefetch.mock.calls.map(([options]) => (options as { queryKey: unknown[] }).queryKey[0]);
  return { client, keys };
}

afterEach(() => clearTokens());

describe('starting the first screen early', () => {
  it('asks for the session, the dashboard figures and the checklist at once on the dashboard', () => {
    storeSession({ accessToken: 'a', refreshToken: 'r' }, 'd');
    const { client, keys } = spiedClient();
    startEarly(client, '/');
    expect(keys()).toEqual(['/api/auth/user', '/api/dashboard', '/api/onboarding']);
  });

  it('asks only for the session on another screen (its own data waits for the screen)', () => {
    storeSession({ accessToken: 'a', refreshToken: 'r' }, 'd');
    const { client, keys } = spiedClient();
    startEarly(client, '/approvals');
    expect(keys()).toEqual(['/api/auth/user']);
  });

  it('asks for nothing without a stored session', () => {
    const { client, keys } = spiedClient();
    startEarly(client, '/');
    expect(keys()).toEqual([]);
  });
});
