import { expect, test } from '@playwright/test';
import { apiAs, DESKTOP, expectAccessible, expectToast, MOBILE, signInAs, snap } from './fixtures';

const suffix = () => Math.random().toString(36).slice(2, 8).toUpperCase();

/*
 * adam (admin) works the vendor master: masked bank details only, blocking with a reason,
 * unblocking shows why, creating a vendor, reading a vendor's spend. Vendors touched: Atlas Legal LLP
 * and two new ones (the last made after the count of the first test).
 */
test.describe('vendor management (adam)', () => {
  test('lists vendors with masked bank accounts and blocks one with a reason', async ({ page }) => {
    await signInAs(page, 'adam', undefined, '/vendor-management');
    await expect(page.getByRole('heading', { name: 'Vendor Management' })).toBeVisible();
    await expect(page.locator('[data-scaffold]')).toHaveCount(0);
    const table = page.getByRole('table', { name: 'Vendors' });
    await expect(table.getByRole('row')).toHaveCount(26); // header + 25 rows of the 33 seeded and any other spec's
    // The phone cards carry their own (hidden) pager: the visible one counts.
    await expect(page.getByText(/^1–25 of (3[3-9]|[4-9]\d)$/).locator('visible=true')).toBeVisible();
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
    const row = page
      .getByRole('table', { name: 'Vendors' })
      .getByRole('row')
      .filter({ hasText: 'Bristol Print Works' });
    await expect(row).toContainText('Pending verification');
    await expect(row).toContainText('•••• 6819');
    await expect(row).toContainText('45 days');
    expect(await page.content()).not.toContain('GB29NWBK60161331926819');
  });

  test("a change of a vendor's bank account waits until someone else confirms it (adam asks, carla confirms)", async ({
    page,
    browser,
  }) => {
    const context = await browser.newContext();
    const adamApi = await apiAs(context.request, 'adam');
    const orgs = await adamApi.get<{ items: { id: string; code: string }[] }>('/api/organizations');
    const taxId = `BANK-${suffix()}`;
    const name = `Severn Pallets ${taxId}`;
    await adamApi.post('/api/vendors', {
      organizationId: orgs.items.find((o) => o.code === 'MF')!.id,
      name,
      taxId,
      paymentTermsDays: 30,
      currency: 'GBP',
      bankAccount: 'GB29 NWBK 6016 1331 9268 19',
    });
    await context.close();

    // adam asks for a new account: the one on file stays until someone else confirms.
    await signInAs(page, 'adam', undefined, '/vendor-management');
    await page.getByRole('searchbox', { name: 'Search vendors' }).fill(taxId);
    const row = page.getByRole('table', { name: 'Vendors' }).getByRole('row').filter({ hasText: name });
    await expect(row).toContainText('•••• 6819');
    await row.getByRole('button', { name: `Actions for ${name}` }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: `Edit ${name}` });
    await edit.getByLabel(/^New bank account or IBAN/).fill('GB94 BARC 1020 1530 0934 59');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expectToast(
      page,
      'Vendor saved',
      `${name} was updated. The new bank account waits for confirmation by someone else who manages vendors.`,
    );
    await expect(row).toContainText('•••• 6819');
    await expect(row.getByTestId('vendor-bank-pending')).toHaveText('Change to •••• 3459 awaits confirmation');
    await expect(edit).toBeHidden();
    await row.getByRole('button', { name: `Actions for ${name}` }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const notice = edit.getByTestId('pending-bank-change');
    await expect(notice).toContainText('You asked for this change, so someone else must confirm it.');
    await expect(notice.getByRole('button', { name: 'Confirm change' })).toBeDisabled();
    await expectAccessible(page);
    await snap(page, 'vendor-bank-change-pending');
    await page.setViewportSize(MOBILE);
    await snap(page, 'vendor-bank-change-pending');
    await page.setViewportSize(DESKTOP);

    // carla, who also manages vendors, confirms it; payments go to the new account from then on.
    const carlaContext = await browser.newContext();
    const carla = await carlaContext.newPage();
    await signInAs(carla, 'carla', undefined, '/vendor-management');
    await carla.getByRole('searchbox', { name: 'Search vendors' }).fill(taxId);
    const carlaRow = carla.getByRole('table', { name: 'Vendors' }).getByRole('row').filter({ hasText: name });
    await carlaRow.getByRole('button', { name: `Actions for ${name}` }).click();
    await carla.getByRole('menuitem', { name: 'Edit' }).click();
    const carlaEdit = carla.getByRole('dialog', { name: `Edit ${name}` });
    await expect(carlaEdit.getByTestId('pending-bank-change')).toContainText('requested by Adam Clarke');
    await carlaEdit.getByRole('button', { name: 'Confirm change' }).click();
    await expectToast(carla, 'Bank account change confirmed', name);
    await expect(carlaRow).toContainText('•••• 3459');
    await expect(carlaRow.getByTestId('vendor-bank-pending')).toHaveCount(0);
    await snap(carla, 'vendor-bank-change-confirmed');
    await carlaContext.close();
  });

  test('a vendor shows spend to date (approved and paid) and open balance (approved, not paid)', async ({
    page,
    browser,
  }) => {
    const context = await browser.newContext();
    const [rita, max, dana, adam] = await Promise.all([
      apiAs(context.request, 'rita'),
      apiAs(context.request, 'max'),
      apiAs(context.request, 'dana'),
      apiAs(context.request, 'adam'),
    ]);
    const options = await rita.get<{
      categories: { id: string; name: string }[];
      organization: { id: string; currency: string };
    }>('/api/requests/options');
    const category = options.categories.find((c) => c.name.startsWith('Office Supplies')) ?? options.categories[0]!;
    const taxId = `SPEND-${suffix()}`;
    const name = `Harbour Office Supply ${taxId}`;
    const vendor = await adam.post<{ id: string }>('/api/vendors', {
      organizationId: options.organization.id,
      name,
      taxId,
      paymentTermsDays: 30,
      currency: options.organization.currency,
    });
    await adam.post(`/api/vendors/${vendor.id}/status`, { status: 'active' });

    const raise = async (amount: string, decide: 'approve' | 'pay' | 'leave') => {
      const draft = await rita.post<{ id: string }>('/api/requests', {
        title: `${name} ${amount}`,
        amount,
        currency: options.organization.currency,
        categoryId: category.id,
        vendorId: vendor.id,
      });
      await rita.post(`/api/requests/${draft.id}/submit`, {}, { 'idempotency-key': crypto.randomUUID() });
      if (decide === 'leave') return;
      // Rita's route: her manager, then the finance step.
      await max.post(`/api/approvals/${draft.id}/decide`, { decision: 'approved' });
      const decided = await dana.post<{ status: string }>(`/api/approvals/${draft.id}/decide`, {
        decision: 'approved',
      });
      expect(decided.status).toBe('approved');
      if (decide === 'pay')
        await adam.post(`/api/requests/${draft.id}/pay`, {
          paymentDate: '2026-01-15',
          paymentReference: `PAY-${taxId}`,
        });
    };
    await raise('1200.50', 'pay');
    await raise('310.25', 'approve');
    await raise('99.00', 'leave');
    await context.close();

    const money = (amount: number) =>
      new Intl.NumberFormat('en-US', { style: 'currency', currency: options.organization.currency }).format(amount);
    const spend = money(1510.75);
    const open = money(310.25);

    await signInAs(page, 'adam', undefined, '/vendor-management');
    await page.getByRole('searchbox', { name: 'Search vendors' }).fill(taxId);
    const table = page.getByRole('table', { name: 'Vendors' });
    await expect(table.getByRole('row')).toHaveCount(2);
    await expect(table.getByRole('columnheader', { name: /Spend to date/ })).toBeVisible();
    await expect(table.getByRole('columnheader', { name: /Open balance/ })).toBeVisible();
    const row = table.getByRole('row').filter({ hasText: name });
    await expect(row.getByRole('cell').filter({ hasText: spend })).toHaveCount(1);
    await expect(row.getByRole('cell').filter({ hasText: open })).toHaveCount(1);
    await expect(row).toContainText(`${spend}${open}`);
    await snap(page, 'vendor-spend');

    await row.getByRole('button', { name: `Actions for ${name}` }).click();
    await page.getByRole('menuitem', { name: 'View details' }).click();
    const details = page.getByRole('dialog', { name });
    await expect(details.getByTestId('vendor-spend-to-date')).toHaveText(spend);
    await expect(details.getByTestId('vendor-open-balance')).toHaveText(open);
    await expect(details).toContainText('30 days');
    await expectAccessible(page);
    await snap(page, 'vendor-spend-details');
    await page.keyboard.press('Escape');
    await expect(details).toHaveCount(0);

    // A phone: a card per vendor with both figures, opening the same details.
    await page.setViewportSize(MOBILE);
    const card = page.getByTestId('vendor-card').filter({ hasText: name });
    await expect(card).toContainText(`Open balance ${open}`);
    await expect(card).toContainText(`Spend to date${spend}`);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(MOBILE.width);
    await snap(page, 'vendor-spend');
    await card.getByRole('button', { name: `Details of ${name}` }).click();
    await expect(page.getByRole('dialog', { name }).getByTestId('vendor-open-balance')).toHaveText(open);
    await snap(page, 'vendor-spend-details');
    await page.setViewportSize(DESKTOP);
  });
});
