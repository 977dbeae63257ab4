import { expect, test } from '@playwright/test';
import {
  DESKTOP,
  expectAccessible,
  expectToast,
  MOBILE,
  signInAs,
  signInWithForm,
  snap,
  storedTokens,
} from './fixtures';

test.describe('sign-in screen', () => {
  test('shows Welcome Back with the username hint and Request Access link, and passes axe', async ({ page }) => {
    await page.goto('/auth');
    await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible();
    await expect(page.getByText('Your username is your first name in lowercase.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Request Access' })).toHaveAttribute('href', '/register');
    await expect(page).toHaveTitle(/Sign In/);
    await expectAccessible(page);
    await snap(page, 'sign-in');
    await page.setViewportSize(MOBILE);
    await snap(page, 'sign-in');
    await expectAccessible(page);
    await page.setViewportSize(DESKTOP);
  });

  for (const path of ['/', '/landing', '/no-such-page', '/approvals']) {
    test(`signed-out visit to ${path} shows the sign-in screen`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible();
    });
  }

  test('both fields are required, checked before any call', async ({ page }) => {
    await page.goto('/auth');
    let called = false;
    page.on('request', (r) => {
      if (r.url().endsWith('/api/auth/login')) called = true;
    });
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expectToast(page, 'Validation Error', 'Please enter both username and password');
    await page.getByLabel('Username').fill('rita');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByTestId('login-error')).toHaveText('Please enter both username and password');
    expect(called).toBe(false);
  });

  test('a wrong password shows the server text', async ({ page }) => {
    await signInWithForm(page, 'max', 'not-his-password');
    await expectToast(page, 'Login Failed', 'Invalid credentials');
    await expect(page.getByTestId('login-error')).toHaveText('Invalid credentials');
    expect((await storedTokens(page)).accessToken).toBeNull();
  });

  test('an unknown user gets the same answer', async ({ page }) => {
    await signInWithForm(page, 'nobody-e2e', 'Whatever!2026');
    await expectToast(page, 'Login Failed', 'Invalid credentials');
  });

  test('the sixth failure for one username is throttled', async ({ page }) => {
    await page.goto('/auth');
    for (let i = 0; i < 5; i += 1) {
      const res = await page.request.post('/api/auth/login', {
        data: { username: 'lockout-e2e', password: `wrong-${i}` },
      });
      expect(res.status()).toBe(401);
    }
    await signInWithForm(page, 'lockout-e2e', 'wrong-again');
    await expectToast(page, 'Login Failed', 'Too many sign-in attempts. Try again in 15 minutes.');
  });

  test('success stores the session, toasts, and lands on the dashboard greeting the user', async ({ page }) => {
    await signInWithForm(page, 'rita');
    await expectToast(page, 'Login Successful');
    await expect(page).toHaveURL('/');
    await expect(page.getByRole('heading', { name: /, Rita$/ })).toBeVisible();
    const tokens = await storedTokens(page);
    expect(tokens.accessToken).toBeTruthy();
    expect(tokens.refreshToken).toBeTruthy();
    expect(tokens.deviceId).toBeTruthy();
  });

  test('a visit to /auth with a valid session goes to the dashboard', async ({ page }) => {
    await signInAs(page, 'rita', undefined, '/auth');
    await expect(page).toHaveURL('/');
    await expect(page.getByRole('heading', { name: /, Rita$/ })).toBeVisible();
  });
});
