import { expect, test } from '@playwright/test';
import { DESKTOP, expectAccessible, expectToast, MOBILE, signInAs, snap } from './fixtures';

/*
 * adam (admin) works the vendor master: masked bank details only, blocking with a reason,
 * unblocking shows why, creating a vendor. Vendors touched: Atlas Legal LLP and a new one.
 */
test.describe('vendor management (adam)', () => {
  test('lists vendors with masked bank accounts and blocks one with a reason', async ({ page }) => {
    await signInAs(page, 'adam', undefined, '/vendor-management');
    await expect(page.getByRole('heading', { name: 'Vendor Management' })).toBeVisible();
    await expect(page.locator('[data-scaffold]')).toHaveCount(0);
    const table = page.getByRole('table', { name: 'Vendors' });
    await expect(table.getByRole('row')).toHaveCount(26); // header + 25 rows of 33
    await expect(page.getByText('1–25 of 33')).toBeVisible();
    await expect(table).toContainText('•••• ');
    // The seed's account numbers (e.g. Atlas Legal's MG000040007919) never reach the browser.
    const html = await page.content();
    expect(html).not.toContain('MG000040007919');
    expect(html).not.toContain('v1:');
    await expectAccessible(page);
    await snap(page, 'vendor-management');
    await page.setViewportSize(MOBILE);
    await snap(page, 'vendor-management');
    await page.setViewportSize(DESKTOP);

    await page.getByRole('searchbox', { name: 'Search vendors' }).fill('Atlas');
    const atlas = table.getByRole('row').filter({ hasText: 'Atlas Legal LLP' });
    await expect(table.getByRole('row')).toHaveCount(2);
    await expect(atlas).toContainText('Active');
    await expect(atlas).toContainText('•••• 7919');

    await atlas.getByRole('button', { name: 'Actions for Atlas Legal LLP' }).click();
    await page.getByRole('menuitem', { name: 'Block' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Block Atlas Legal LLP?' });
    await dialog.getByRole('button', { name: 'Block vendor' }).click();
    await expect(dialog.getByText('Enter a reason of at least 3 characters')).toBeVisible();
    await dialog.getByLabel(/Reason for blocking/).fill('Invoices sent from an unknown bank account');
    await expectAccessible(page);
    await snap(page, 'vendor-block-dialog');
    await dialog.getByRole('button', { name: 'Block vendor' }).click();
    await expectToast(page, 'Vendor blocked', 'Atlas Legal LLP is now blocked.');
    await expect(atlas.getByTestId('vendor-status')).toHaveText('Blocked');

    // The blocked filter finds it; unblocking shows who blocked it and why.
    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'Blocked', exact: true }).click();
    await expect(atlas).toBeVisible();
    await atlas.getByRole('button', { name: 'Actions for Atlas Legal LLP' }).click();
    await page.getByRole('menuitem', { name: 'Unblock' }).click();
    const unblock = page.getByRole('alertdialog', { name: 'Unblock Atlas Legal LLP?' });
    await expect(unblock).toContainText('Blocked by Adam Clarke');
    await expect(unblock).toContainText('Invoices sent from an unknown bank account');
    await expectAccessible(page);
    await snap(page, 'vendor-unblock-dialog');
    await unblock.getByRole('button', { name: 'Cancel' }).click();
    await expect(atlas.getByTestId('vendor-status')).toHaveText('Blocked');
  });

  test('creates a vendor whose bank account is shown masked, and refuses a duplicate tax ID', async ({ page }) => {
    await signInAs(page, 'adam', undefined, '/vendor-management');
    await page.getByRole('button', { name: 'New vendor' }).click();
    const dialog = page.getByRole('dialog', { name: 'New vendor' });
    await dialog.getByRole('combobox', { name: /Organization/ }).click();
    await page.getByRole('option', { name: 'Meridian Foods' }).click();
    await expect(dialog.getByRole('combobox', { name: /Currency/ })).toContainText('GBP');
    await dialog.getByLabel(/^Name/).fill('Bristol Print Works');
    await dialog.getByLabel(/^Tax ID/).fill('MG-TX-1001');
    await dialog.getByLabel(/^Payment terms/).fill('400');
    await dialog.getByLabel(/^Bank account or IBAN/).fill('GB29 NWBK 6016 1331 9268 19');
    await dialog.getByRole('button', { name: 'Create vendor' }).click();
    await expect(dialog.getByText('Payment terms must be between 0 and 365 days')).toBeVisible();
    await dialog.getByLabel(/^Payment terms/).fill('45');
    await dialog.getByRole('button', { name: 'Create vendor' }).click();
    // Shown above the form and under the Tax ID field.
    await expect(dialog.getByText('A vendor with this tax ID already exists')).toHaveCount(2);
    await expect(dialog.getByLabel(/^Tax ID/)).toHaveAttribute('aria-invalid', 'true');
    await expectAccessible(page);
    await snap(page, 'vendor-create-dialog');
    await page.setViewportSize(MOBILE);
    await snap(page, 'vendor-create-dialog');
    await page.setViewportSize(DESKTOP);

    await dialog.getByLabel(/^Tax ID/).fill('GB-PRT-7781');
    await dialog.getByRole('button', { name: 'Create vendor' }).click();
    await expectToast(page, 'Vendor created', 'Bristol Print Works is pending verification.');
    await page.getByRole('searchbox', { name: 'Search vendors' }).fill('Bristol');
    const row = page.getByRole('table', { name: 'Vendors' }).getByRole('row').filter({ hasText: 'Bristol Print Works' });
    await expect(row).toContainText('Pending verification');
    await expect(row).toContainText('•••• 6819');
    await expect(row).toContainText('45 days');
    expect(await page.content()).not.toContain('GB29NWBK60161331926819');
  });
});
