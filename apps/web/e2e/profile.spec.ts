import { expect, test } from '@playwright/test';
import { expectAccessible, expectToast, MOBILE, signInAs, signInWithForm, snap } from './fixtures';

const NEW_PASSWORD = 'Grace!Forecast2026';

test.describe.serial('profile (grace)', () => {
  test('header card, tabs and profile update', async ({ page }) => {
    await signInAs(page, 'grace', undefined, '/profile');
    await expect(page.getByRole('heading', { name: 'User Profile' })).toBeVisible();
    await expect(page.getByTestId('profile-name')).toBeVisible();
    await expect(page.getByText('@grace')).toBeVisible();
    await expect(page.getByText('Organization Member')).toBeVisible();
    await expect(page.getByRole('main').getByTestId('role-badge')).toHaveText('Group CFO');
    await expect(page.getByText('Active', { exact: true })).toBeVisible();
    await expect(page.getByText(/^Last login /)).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Profile Information' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('heading', { name: 'Personal Information' })).toBeVisible();
    await expectAccessible(page);
    await snap(page, 'profile');

    await page.getByLabel('First Name *').fill('');
    await page.getByRole('button', { name: 'Update Profile' }).click();
    await expectToast(page, 'Validation Error', 'First name and last name are required');

    await page.getByLabel('First Name *').fill('Grace');
    await page.getByLabel('Phone Number').fill('+44 20 7946 0001');
    await page.getByRole('button', { name: 'Update Profile' }).click();
    await expectToast(page, 'Success', 'Profile updated successfully');
    await expect(page.getByRole('main').getByText('+44 20 7946 0001')).toBeVisible();

    await page.setViewportSize(MOBILE);
    await snap(page, 'profile');
  });

  test("time zone: schedules follow the organization until a zone of one's own is saved", async ({ page }) => {
    await signInAs(page, 'grace', undefined, '/profile');
    const card = page
      .getByRole('heading', { name: 'Time zone' })
      .locator('xpath=ancestor::*[contains(@class, "rounded")][1]');
    await expect(card).toContainText('Now: ');
    const field = page.getByRole('combobox', { name: 'Time zone' });
    await expect(field).toHaveValue(/My organization's/);
    await field.click();
    await field.fill('Berlin');
    await page.getByRole('option', { name: 'Europe/Berlin' }).click();
    await page.getByRole('button', { name: 'Save time zone' }).click();
    await expectToast(page, 'Time zone saved', 'Your schedules run in Europe/Berlin.');
    await page.reload();
    await expect(page.getByRole('combobox', { name: 'Time zone' })).toHaveValue('Europe/Berlin');
    await expect(card).toContainText('Now: Europe/Berlin');
    await snap(page, 'profile-time-zone');

    // Back to the organization's zone.
    await page.getByRole('combobox', { name: 'Time zone' }).click();
    await page.getByRole('option', { name: /^My organization's/ }).click();
    await page.getByRole('button', { name: 'Save time zone' }).click();
    await expectToast(page, 'Time zone saved');
    await page.reload();
    await expect(page.getByRole('combobox', { name: 'Time zone' })).toHaveValue(/My organization's/);
  });

  test('security tab: wording, validation, a refused common password, then a change', async ({ page }) => {
    await signInAs(page, 'grace', undefined, '/profile');
    await page.getByRole('tab', { name: 'Security' }).click();
    await expect(page.getByRole('heading', { name: 'Change Password' })).toBeVisible();
    await expect(page.getByText('Update your password to keep your account secure')).toBeVisible();
    await expect(page.getByText('Password Change Required')).toHaveCount(0);
    await expect(page.getByText(/don't need your current password/)).toBeVisible();
    await expect(page.getByLabel('New Password *', { exact: true })).toHaveAttribute('placeholder', /min 8 characters/);
    await expectAccessible(page);
    await snap(page, 'profile-security');

    const submit = page.getByRole('button', { name: 'Change Password' });
    await submit.click();
    await expectToast(page, 'Validation Error', 'New password fields are required');

    await page.getByLabel('New Password *', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Confirm New Password *').fill('nope');
    await submit.click();
    await expectToast(page, 'Validation Error', "New passwords don't match");

    await page.getByLabel('New Password *', { exact: true }).fill('password');
    await page.getByLabel('Confirm New Password *').fill('password');
    await submit.click();
    await expectToast(page, 'Error', 'This password is too common');

    await page.getByLabel('New Password *', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Confirm New Password *').fill(NEW_PASSWORD);
    await submit.click();
    await expectToast(page, 'Success', 'Password changed successfully!');
    await expect(page.getByLabel('New Password *', { exact: true })).toHaveValue('');
    await expect(page.getByLabel('Confirm New Password *')).toHaveValue('');

    await page.evaluate(() => localStorage.clear());
    await signInWithForm(page, 'grace', NEW_PASSWORD);
    await expect(page).toHaveURL('/');
  });

  test('signed out, the profile asks for a sign-in', async ({ page }) => {
    await page.goto('/profile');
    await expect(page.getByText('Sign in to view and edit your profile.')).toBeVisible();
  });
});
