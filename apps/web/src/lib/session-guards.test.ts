import { describe, expect, it, vi } from 'vitest';
import { storeSession, getAccessToken, getRefreshToken } from './auth-storage';
import { applyForceLogin, installUnhandledRejectionGuard, mentionsUnauthorized } from './session-guards';

describe('forceLogin=true (docs/product.md §6.1)', () => {
  it('clears both tokens and removes the parameter from the address', () => {
    storeSession({ accessToken: 'a', refreshToken: 'r' }, 'd');
    window.history.replaceState(null, '', '/approvals?tab=mine&forceLogin=true#top');
    expect(applyForceLogin()).toBe(true);
    expect(getAccessToken()).toBeNull();
    expect(getRefreshToken()).toBeNull();
    expect(window.location.pathname + window.location.search + window.location.hash).toBe('/approvals?tab=mine#top');
  });
  it('does nothing without the parameter', () => {
    storeSession({ accessToken: 'a', refreshToken: 'r' }, 'd');
    window.history.replaceState(null, '', '/?forceLogin=false');
    expect(applyForceLogin()).toBe(false);
    expect(getAccessToken()).toBe('a');
  });
});

describe('unhandled rejections (docs/product.md §6.3)', () => {
  it('recognises 401 and Unauthorized', () => {
    expect(mentionsUnauthorized(new Error('401: Unauthorized'))).toBe(true);
    expect(mentionsUnauthorized('Unauthorized')).toBe(true);
    expect(mentionsUnauthorized(new Error('500: boom'))).toBe(false);
  });
  it('clears the tokens and hands over to the sign-in redirect', () => {
    storeSession({ accessToken: 'a', refreshToken: 'r' }, 'd');
    const onUnauthorized = vi.fn();
    const remove = installUnhandledRejectionGuard(onUnauthorized);
    const event = new Event('unhandledrejection') as PromiseRejectionEvent;
    Object.defineProperty(event, 'reason', { value: new Error('401: Unauthorized') });
    window.dispatchEvent(event);
    remove();
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(getAccessToken()).toBeNull();
  });
});
