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

/*
 * adam (admin) reviews the seeded pending request of Omar Haddad; Omar then signs in with the
 * temporary password shown once and must set his own.
 */
const OMAR_PASSWORD = 'Omar!Dubai-2026';

test.describe('registration management (adam)', () => {
  test('adam approves Omar; Omar signs in with the temporary password and must set a new one', async ({
    page,
    browser,
  }) => {
    await signInAs(page, 'adam', undefined, '/registration-management');
    await expect(page.getByRole('heading', { name: 'Registration Requests' })).toBeVisible();
    await expect(page.locator('[data-scaffold]')).toHaveCount(0);
    const table = page.getByRole('table', { name: 'Registration requests' });
    const omarRow = table.getByRole('row').filter({ hasText: 'omar.haddad@meridiantech.com' });
    await expect(omarRow).toBeVisible();
    await expect(omarRow).toContainText('Subsidiary Technical Lead');
    await expect(omarRow).toContainText('New IT lead for the Dubai office.');
    await expect(page.getByRole('tab', { name: 'Pending' })).toHaveAttribute('aria-selected', 'true');
    await expectAccessible(page);
    await snap(page, 'registration-management');
    await page.setViewportSize(MOBILE);
    await snap(page, 'registration-management');
    await page.setViewportSize(DESKTOP);

    // Approve: the requested role and the organization (from the e-mail's domain) are suggested.
    await omarRow.getByRole('button', { name: 'Approve Omar Haddad' }).click();
    const dialog = page.getByRole('dialog', { name: 'Approve Omar Haddad' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('combobox', { name: /Final role/ })).toContainText(
      'Subsidiary Technical Lead (requested)',
    );
    await expect(dialog.getByRole('combobox', { name: /Organization/ })).toContainText('Meridian Tech');
    // An admin cannot hand out the owner role (nobody grants more than they hold).
    await dialog.getByRole('combobox', { name: /Final role/ }).click();
    await expect(page.getByRole('option', { name: 'Owner', exact: true })).toHaveCount(0);
    await expect(page.getByRole('option', { name: 'Administrator', exact: true })).toBeVisible();
    await page.getByRole('option', { name: 'Subsidiary Technical Lead (requested)' }).click();
    await dialog.getByRole('combobox', { name: /Department/ }).click();
    await page.getByRole('option', { name: 'IT', exact: true }).click();
    await expectAccessible(page);
    await snap(page, 'registration-approve-dialog');
    await dialog.getByRole('button', { name: 'Approve and create user' }).click();

    // The temporary password, shown once.
    const shown = page.getByTestId('temporary-password-dialog');
    await expect(shown).toBeVisible();
    await expect(shown.getByRole('heading', { name: 'User created' })).toBeVisible();
    await expect(shown.getByTestId('new-username')).toHaveText('omar');
    await expect(shown).toContainText('Shown once.');
    const tempPassword = (await shown.getByTestId('temporary-password').innerText()).trim();
    expect(tempPassword.length).toBeGreaterThanOrEqual(16);
    await expect(shown.getByRole('button', { name: 'Copy' })).toBeVisible();
    await expectAccessible(page);
    await snap(page, 'registration-temporary-password');
    await page.setViewportSize(MOBILE);
    await snap(page, 'registration-temporary-password');
    await page.setViewportSize(DESKTOP);
    await shown.getByRole('button', { name: 'Done' }).click();
    await expect(shown).toHaveCount(0);
    await expect(page.getByText(tempPassword)).toHaveCount(0);

    // Omar left the pending list and shows as approved with his username.
    await expect(table.getByRole('row').filter({ hasText: 'omar.haddad@meridiantech.com' })).toHaveCount(0);
    await page.getByRole('tab', { name: 'Approved' }).click();
    const approvedRow = table.getByRole('row').filter({ hasText: 'omar.haddad@meridiantech.com' });
    await expect(approvedRow).toContainText('Username: omar');
    await expect(approvedRow).toContainText('Adam Clarke');
    await expect(approvedRow.getByRole('button', { name: /Approve/ })).toHaveCount(0);
    await page.getByRole('tab', { name: 'All' }).click();
    await expect(table.getByRole('row').filter({ hasText: 'omar.haddad@meridiantech.com' })).toContainText('Approved');

    // Omar, in his own browser: the temporary password only opens the first-time change.
    const omarContext = await browser.newContext({ viewport: DESKTOP });
    const omar = await omarContext.newPage();
    await signInWithForm(omar, 'omar', tempPassword);
    await expect(omar).toHaveURL(/\/change-password\?userId=[^&]+&firstTime=true$/);
    expect((await storedTokens(omar)).accessToken).toBeNull();
    await expect(omar.getByRole('heading', { name: 'Set Your Password' })).toBeVisible();
    await omar.getByLabel('New Password', { exact: true }).fill(OMAR_PASSWORD);
    await omar.getByLabel('Confirm New Password').fill(OMAR_PASSWORD);
    await omar.getByRole('button', { name: 'Set Password' }).click();
    await expectToast(omar, 'Success', 'Password set successfully!');
    await expect(omar).toHaveURL(/\/auth$/, { timeout: 5000 });

    await signInWithForm(omar, 'omar', tempPassword);
    await expectToast(omar, 'Login Failed', 'Invalid credentials');
    await signInWithForm(omar, 'omar', OMAR_PASSWORD);
    await expect(omar).toHaveURL('/');
    await expect(omar.getByRole('heading', { name: /, Omar$/ })).toBeVisible();
    await omarContext.close();
  });

  test('adam rejects a request with a required reason', async ({ page }) => {
    await signInAs(page, 'adam', undefined, '/registration-management');
    const table = page.getByRole('table', { name: 'Registration requests' });
    const tomRow = table.getByRole('row').filter({ hasText: 'tom.hughes@meridianfoods.com' });
    await tomRow.getByRole('button', { name: 'Reject Tom Hughes' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Reject Tom Hughes?' });
    await dialog.getByRole('button', { name: 'Reject request' }).click();
    await expect(dialog.getByText('Enter a reason of at least 3 characters')).toBeVisible();
    await dialog.getByLabel(/Reason/).fill('Please ask your manager to request access for you');
    await expectAccessible(page);
    await snap(page, 'registration-reject-dialog');
    await dialog.getByRole('button', { name: 'Reject request' }).click();
    await expectToast(page, 'Request rejected');
    await expect(tomRow).toHaveCount(0);
    await page.getByRole('tab', { name: 'Rejected' }).click();
    await expect(table.getByRole('row').filter({ hasText: 'tom.hughes@meridianfoods.com' })).toContainText(
      'Reason: Please ask your manager to request access for you',
    );
  });
});
