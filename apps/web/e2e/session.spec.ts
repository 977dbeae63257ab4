import { expect, test } from '@playwright/test';
import { apiLogin, expectToast, signInAs, snap, storedTokens } from './fixtures';

test.describe('session', () => {
  test('logout calls the server, clears the session and says Session Ended (max)', async ({ page }) => {
    await signInAs(page, 'max');
    const before = await storedTokens(page);
    await page.getByTestId('avatar-button').click();
    const logoutCall = page.waitForRequest((r) => r.url().endsWith('/api/auth/logout') && r.method() === 'POST');
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    expect((await logoutCall).headers().authorization).toBe(`Bearer ${before.accessToken}`);
    await expectToast(page, 'Session Ended', 'You have been logged out successfully');
    await expect(page).toHaveURL(/\/auth$/);
    expect((await storedTokens(page)).accessToken).toBeNull();
    await snap(page, 'logged-out');
    // The old refresh token no longer works: the server revoked the session.
    const res = await page.request.post('/api/auth/refresh', { data: { refreshToken: before.refreshToken } });
    expect(res.status()).toBe(401);
  });

  test('forceLogin=true clears both tokens and leaves the address (max)', async ({ page }) => {
    await signInAs(page, 'max');
    await page.goto('/approvals?forceLogin=true');
    await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible();
    expect(new URL(page.url()).search).toBe('');
    const tokens = await storedTokens(page);
    expect(tokens.accessToken).toBeNull();
    expect(tokens.refreshToken).toBeNull();
  });

  test('an expired access token is refreshed once and the user stays signed in (carla)', async ({ page }) => {
    await signInAs(page, 'carla');
    await expect(page.getByRole('heading', { name: /, Carla$/ })).toBeVisible();
    const before = await storedTokens(page);
    await page.evaluate(() => localStorage.setItem('accessToken', 'expired.or.forged'));
    const refreshes: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/api/auth/refresh')) refreshes.push(r.postData() ?? '');
    });
    await page.reload();
    await expect(page.getByRole('heading', { name: /, Carla$/ })).toBeVisible();
    expect(refreshes).toHaveLength(1);
    const after = await storedTokens(page);
    expect(after.accessToken).not.toBe('expired.or.forged');
    expect(after.refreshToken).not.toBe(before.refreshToken);
  });

  test('a session used from another device id is refused and signs out (carla)', async ({ page }) => {
    await signInAs(page, 'carla');
    await expect(page.getByRole('heading', { name: /, Carla$/ })).toBeVisible();
    await page.evaluate(() => {
      localStorage.setItem('deviceId', 'another-device');
      localStorage.removeItem('refreshToken');
    });
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible();
    expect((await storedTokens(page)).accessToken).toBeNull();
  });

  test('auth-bridge takes tokens from the fragment, validates and stores them (carla)', async ({ page }) => {
    const body = await apiLogin(page.request, 'carla');
    const fragment = new URLSearchParams({
      accessToken: body.tokens!.accessToken,
      refreshToken: body.tokens!.refreshToken,
      deviceId: body.deviceId!,
    });
    await page.goto(`/auth-bridge#${fragment.toString()}`);
    await expect(page).toHaveURL(/\/auth-success$/);
    await expect(page.getByRole('heading', { name: "You're signed in" })).toBeVisible();
    expect((await storedTokens(page)).accessToken).toBe(body.tokens!.accessToken);
    await snap(page, 'auth-success');
    await page.getByRole('link', { name: 'Continue to Dashboard' }).click();
    await expect(page.getByRole('heading', { name: /, Carla$/ })).toBeVisible();
  });

  test('auth-bridge refuses a bad fragment', async ({ page }) => {
    await page.goto('/auth-bridge#accessToken=forged&refreshToken=forged&deviceId=forged');
    await expect(page.getByRole('heading', { name: 'Sign-in link not valid' })).toBeVisible();
    expect((await storedTokens(page)).accessToken).toBeNull();
    expect(page.url()).not.toContain('forged');
    await snap(page, 'auth-bridge-invalid');
  });
});
