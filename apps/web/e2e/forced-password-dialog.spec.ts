import { expect, test } from '@playwright/test';
import { expectToast, signInAs, signInWithForm, snap, storedTokens } from './fixtures';

const NEW_PASSWORD = 'Henry!Board2026';

test('the forced password dialog blocks the page until a new password is set (henry)', async ({ page }) => {
  // The demo world has no signed-in user who must change a password, so the user record is
  // marked here; everything else (the change itself, the sign-in after it) is real.
  await page.route('**/api/auth/user', async (route) => {
    const response = await route.fetch();
    if (!response.ok()) return route.fulfill({ response });
    const user = await response.json();
    await route.fulfill({ response, json: { ...user, requirePasswordChange: true } });
  });
  await signInAs(page, 'henry');

  const dialog = page.getByTestId('forced-password-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('heading', { name: 'Password Change Required' })).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Close' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeVisible();
  await page.mouse.click(5, 5);
  await expect(dialog).toBeVisible();
  await snap(page, 'forced-password-dialog');

  await dialog.getByLabel('New Password', { exact: true }).fill(NEW_PASSWORD);
  await dialog.getByLabel('Confirm New Password').fill('different!Pass1');
  await expect(dialog.getByText("Passwords don't match")).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Change Password' })).toBeDisabled();
  await dialog.getByLabel('Confirm New Password').fill(NEW_PASSWORD);
  await dialog.getByRole('button', { name: 'Change Password' }).click();

  await expectToast(page, 'Success', 'Password changed successfully!');
  expect((await storedTokens(page)).accessToken).toBeNull();
  await expect(page).toHaveURL(/\/auth$/, { timeout: 5000 });
  await expect(dialog).toHaveCount(0);

  await page.unroute('**/api/auth/user');
  await signInWithForm(page, 'henry', NEW_PASSWORD);
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('heading', { name: /, Henry$/ })).toBeVisible();
});
