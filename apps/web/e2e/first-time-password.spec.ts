import { expect, test } from '@playwright/test';
import { expectAccessible, expectToast, MOBILE, signInWithForm, snap, storedTokens } from './fixtures';

const NEW_PASSWORD = 'Nina!Ledger2026';

test.describe('first-time password (nina)', () => {
  test('/change-password without userId or firstTime goes to sign-in', async ({ page }) => {
    await page.goto('/change-password');
    await expect(page).toHaveURL(/\/auth$/);
  });

  test('sign in with the temporary password → set a new one → sign in with it', async ({ page }) => {
    await signInWithForm(page, 'nina', 'Welcome!2026');
    await expect(page).toHaveURL(/\/change-password\?userId=[^&]+&firstTime=true$/);
    expect((await storedTokens(page)).accessToken).toBeNull();

    await expect(page.getByRole('heading', { name: 'Set Your Password' })).toBeVisible();
    await expect(page.getByText('Welcome! Please create a secure password for your account.')).toBeVisible();
    await expect(
      page.getByText('This is your first time logging in. Please set a secure password to continue.'),
    ).toBeVisible();
    const submit = page.getByRole('button', { name: 'Set Password' });
    await expect(submit).toBeDisabled();

    await page.getByLabel('New Password', { exact: true }).fill('short');
    await expect(page.getByTestId('strength-label')).toHaveText('Very Weak');
    await page.getByLabel('Confirm New Password').fill('short');
    await expect(submit).toBeDisabled();

    await page.getByLabel('New Password', { exact: true }).fill(NEW_PASSWORD);
    await expect(page.getByTestId('strength-label')).toHaveText('Strong');
    await expect(page.getByTestId('strength-bar')).toHaveAttribute('style', /width: 100%/);
    await page.getByLabel('Confirm New Password').fill(`${NEW_PASSWORD}x`);
    await expect(page.getByText("Passwords don't match")).toBeVisible();
    await expect(submit).toBeDisabled();

    await page.getByRole('button', { name: 'Show password' }).first().click();
    await expect(page.getByLabel('New Password', { exact: true })).toHaveAttribute('type', 'text');

    await expectAccessible(page);
    await snap(page, 'change-password-first-time');
    await page.setViewportSize(MOBILE);
    await snap(page, 'change-password-first-time');
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.getByLabel('Confirm New Password').fill(NEW_PASSWORD);
    await expect(submit).toBeEnabled();
    await submit.click();
    await expectToast(page, 'Success', 'Password set successfully! You can now log in with your new password.');
    await expect(page).toHaveURL(/\/auth$/, { timeout: 5000 });

    await signInWithForm(page, 'nina', 'Welcome!2026');
    await expectToast(page, 'Login Failed', 'Invalid credentials');

    await signInWithForm(page, 'nina', NEW_PASSWORD);
    await expect(page).toHaveURL('/');
    await expect(page.getByRole('heading', { name: /, Nina$/ })).toBeVisible();
    await expect(page.getByTestId('forced-password-dialog')).toHaveCount(0);
  });

  test('the normal mode reads Change Password', async ({ page }) => {
    await page.goto('/change-password?userId=00000000-0000-4000-8000-000000000000');
    await expect(page.getByRole('heading', { name: 'Change Password' })).toBeVisible();
    await expect(page.getByText('Enter your new password below.')).toBeVisible();
    await expect(page.getByText('This is your first time logging in.')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Change Password' })).toBeDisabled();
    await page.getByRole('link', { name: 'Back to Login' }).click();
    await expect(page).toHaveURL(/\/auth$/);
  });
});
