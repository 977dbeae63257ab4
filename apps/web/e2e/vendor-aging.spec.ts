import { expect, test } from '@playwright/test';
import { apiAs, DESKTOP, expectAccessible, expectToast, MOBILE, signInAs, snap } from './fixtures';

const suffix = () => Math.random().toString(36).slice(2, 8).toUpperCase();
const usd = (n: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(n);
const dayPlus = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const daysFromToday = (day: string) =>
  Math.round((Date.parse(`${day}T00:00:00Z`) - Date.parse(`${dayPlus(0)}T00:00:00Z`)) / 86_400_000);
const dateLabel = (day: string) =>
  new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${day}T00:00:00Z`),
  );
interface Due {
  amount: string;
  invoiceNumber: string | null;
  dueDate: string;
  dueDateAdjustedFrom: string | null;
  dueDateAdjustedReason: string | null;
}

/*
 * carla (cfo, group) reads the aging report, opens a vendor of her own making, records a partial
 * payment from the invoice and moves the as-of date; felix (Meridian Logistics) sees his
 * organization only and no payment buttons; rita is refused.
 */
test.describe('vendor aging report', () => {
  test("carla ages a vendor's invoices, records a partial payment and exports", async ({ page, browser }) => {
    const context = await browser.newContext();
    const as = (u: string) => apiAs(context.request, u);
    const [rita, max, dana, carla, adam] = await Promise.all([
      as('rita'),
      as('max'),
      as('dana'),
      as('carla'),
      as('adam'),
    ]);
    const options = await rita.get<{
      categories: { id: string; name: string }[];
      organization: { id: string; currency: string };
    }>('/api/requests/options');
    const category = options.categories.find((c) => c.name.startsWith('Office Supplies')) ?? options.categories[0]!;
    const taxId = `AGE-${suffix()}`;
    const name = `Aging Haulage ${taxId}`;
    const vendor = await adam.post<{ id: string }>('/api/vendors', {
      organizationId: options.organization.id,
      name,
      taxId,
      paymentTermsDays: 30,
      currency: 'USD',
    });
    await adam.post(`/api/vendors/${vendor.id}/status`, { status: 'active' });
    for (const amount of ['2000.00', '480.00']) {
      const draft = await rita.post<{ id: string }>('/api/requests', {
        title: `${name} ${amount}`,
        amount,
        currency: 'USD',
        categoryId: category.id,
        vendorId: vendor.id,
      });
      const submitted = await rita.post<{ overBudget: boolean }>(
        `/api/requests/${draft.id}/submit`,
        {},
        { 'idempotency-key': crypto.randomUUID() },
      );
      // Over a budget line, finance decides the overrun first.
      if (submitted.overBudget)
        await carla.post(`/api/approvals/${draft.id}/decide`, {
          decision: 'approved',
          reason: 'Within the haulage plan',
        });
      await max.post(`/api/approvals/${draft.id}/decide`, { decision: 'approved' });
      expect(
        (await dana.post<{ status: string }>(`/api/approvals/${draft.id}/decide`, { decision: 'approved' })).status,
      ).toBe('approved');
    }
    // Due as the server set it: the terms' end, or the next business day of Meridian Logistics' country.
    const dueOf = async (amount: string) =>
      (await carla.get<{ items: Due[] }>(`/api/payables?vendorId=${vendor.id}`)).items.find(
        (p) => p.amount === amount,
      )!;
    const movedNote = (p: Due) => `Moved from ${dateLabel(p.dueDateAdjustedFrom!)} (${p.dueDateAdjustedReason})`;

    await signInAs(page, 'carla', undefined, '/vendor-aging-report');
    await expect(page.getByRole('heading', { name: 'Vendor Aging Report' })).toBeVisible();
    await expect(page.locator('[data-scaffold]')).toHaveCount(0);
    const table = page.getByRole('table', { name: /Open payables per vendor/ });
    const row = table.getByTestId('aging-vendor-row').filter({ hasText: name });
    // Invoiced today, due in 30 days (or the business day after): current.
    await expect(row.getByRole('cell').nth(0)).toHaveText(usd(2480));
    await expect(row.getByRole('cell').last()).toHaveText(usd(2480));
    await expect(table.locator('tfoot')).toContainText('Total');
    await expect(page.getByRole('combobox', { name: 'Organization' })).toBeVisible();
    await expectAccessible(page);
    await snap(page, 'vendor-aging');

    await row.getByRole('button', { name }).click();
    const invoices = page.getByRole('table', { name: `Open invoices of ${name}` });
    await expect(invoices.getByRole('row')).toHaveCount(3);
    const big = invoices
      .getByRole('row')
      .filter({ hasText: usd(2000) })
      .first();
    const bigDue = await dueOf('2000.00');
    await expect(big).toContainText(`Due in ${daysFromToday(bigDue.dueDate)} days`);
    if (bigDue.dueDateAdjustedFrom) await expect(big).toContainText(movedNote(bigDue));
    await big.getByRole('button', { name: /Record payment for/ }).click();
    const dialog = page.getByRole('dialog', { name: /Record a payment/ });
    await expect(dialog.getByLabel(/Amount/)).toHaveValue('2000.00');
    await dialog.getByLabel(/Amount/).fill('500.00');
    await dialog.getByLabel('Payment reference').fill(`PMT-${taxId}`);
    await expectAccessible(page);
    await snap(page, 'vendor-aging-payment');
    await dialog.getByRole('button', { name: 'Record payment' }).click();
    await expectToast(page, 'Payment recorded', `${usd(1500)} still open`);
    await expect(row.getByRole('cell').last()).toHaveText(usd(1980));
    await expect(invoices.getByRole('row').filter({ hasText: usd(1500) })).toContainText(`${usd(500)} paid`);
    await snap(page, 'vendor-aging-invoices');

    // The smaller invoice arrives dated forty days ago: due ten days ago with 30-day terms (or the business day after).
    const small = invoices
      .getByRole('row')
      .filter({ hasText: usd(480) })
      .first();
    await small.getByRole('button', { name: /Invoice details of/ }).click();
    const invoiceDialog = page.getByRole('dialog', { name: 'Invoice details' });
    await invoiceDialog.getByLabel('Invoice number').fill(`INV-${taxId}`);
    await invoiceDialog.getByLabel('Invoice date').fill(dayPlus(-40));
    await expectAccessible(page);
    await invoiceDialog.getByRole('button', { name: 'Save invoice' }).click();
    await expectToast(page, 'Invoice saved');
    const smallDue = await dueOf('480.00');
    expect(smallDue.dueDateAdjustedFrom ?? smallDue.dueDate).toBe(dayPlus(-10));
    await expect(invoices.getByRole('row').filter({ hasText: `INV-${taxId}` })).toContainText(
      `${-daysFromToday(smallDue.dueDate)} days past due`,
    );
    if (smallDue.dueDateAdjustedFrom)
      await expect(invoices.getByRole('row').filter({ hasText: `INV-${taxId}` })).toContainText(movedNote(smallDue));
    await expect(row.getByRole('cell').nth(0)).toHaveText(usd(1500));
    await expect(row.getByRole('cell').nth(1)).toHaveText(usd(480));

    // Forty-five days on: fifteen and fifty-five days past due.
    await page.getByLabel('As of').fill(dayPlus(45));
    await expect(row.getByRole('cell').nth(0)).toHaveText(usd(0));
    await expect(row.getByRole('cell').nth(1)).toHaveText(usd(1500));
    await expect(row.getByRole('cell').nth(2)).toHaveText(usd(480));
    // By invoice date: forty-five and eighty-five days since the invoices.
    await page.getByRole('combobox', { name: 'Age by' }).click();
    await page.getByRole('option', { name: 'Invoice date' }).click();
    await expect(row.getByRole('cell').nth(2)).toHaveText(usd(1500));
    await expect(row.getByRole('cell').nth(3)).toHaveText(usd(480));

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'CSV' }).click();
    expect((await download).suggestedFilename()).toMatch(/^vendor-aging-.*\.csv$/);

    await page.setViewportSize(MOBILE);
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name }) });
    await expect(card).toContainText(usd(1980));
    await card.getByRole('button', { name: 'Show invoices' }).click();
    await expect(card.getByRole('list', { name: `Open invoices of ${name}` }).getByRole('listitem')).toHaveCount(2);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(MOBILE.width);
    await expectAccessible(page);
    await snap(page, 'vendor-aging');
    await page.setViewportSize(DESKTOP);
    await context.close();
  });

  test('felix sees Meridian Logistics only and cannot record payments', async ({ page }) => {
    await signInAs(page, 'felix', undefined, '/vendor-aging-report');
    const table = page.getByRole('table', { name: /Open payables per vendor/ });
    await expect(table.locator('tbody tr').first()).toBeVisible();
    const orgs = await table.locator('tbody th[scope="row"] span.block').allTextContents();
    expect(orgs.length).toBeGreaterThan(0);
    for (const o of orgs) expect(o).toMatch(/^Meridian Logistics · /);
    await expect(page.getByRole('combobox', { name: 'Organization' })).toHaveCount(0);
    await table.locator('tbody tr').first().getByRole('button').click();
    await expect(
      page
        .getByRole('table', { name: /Open invoices of/ })
        .getByRole('row')
        .nth(1),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: /Record payment/ })).toHaveCount(0);
    await expectAccessible(page);
    await snap(page, 'vendor-aging-felix');
  });

  test('rita (requester) is refused the screen and its calls', async ({ page, request }) => {
    await signInAs(page, 'rita', undefined, '/vendor-aging-report');
    await expect(page.getByTestId('access-restricted')).toBeVisible();
    const rita = await apiAs(request, 'rita');
    await expect(rita.get('/api/payables/aging')).rejects.toThrow(/403/);
  });
});
