import { expect, test } from '@playwright/test';
import { apiAs, expectAccessible, MOBILE, pageAs, snap } from './fixtures';

const suffix = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

// Paul raises the same order twice with a vendor of his own; his coaching shows the finding and the tip.
test.describe('Expense Coaching', () => {
  test('my findings over time, returned requests, spend against my department and tips, on a desktop and a phone', async ({
    browser,
  }) => {
    const marker = suffix();
    const context = await browser.newContext();
    const [paul, adam] = await Promise.all([apiAs(context.request, 'paul'), apiAs(context.request, 'adam')]);
    const options = await paul.get<{
      categories: { id: string; name: string }[];
      organization: { id: string; currency: string };
    }>('/api/requests/options');
    const category = options.categories.find((c) => c.name.startsWith('Office Supplies')) ?? options.categories[0]!;
    const vendor = await adam.post<{ id: string }>('/api/vendors', {
      organizationId: options.organization.id,
      name: `Toner Haus ${marker}`,
      taxId: `TH-${marker}`,
      paymentTermsDays: 30,
      currency: options.organization.currency,
    });
    await adam.post(`/api/vendors/${vendor.id}/status`, { status: 'active' });
    const refs: string[] = [];
    for (const title of [`Toner cartridges ${marker}`, `Toner cartridges ${marker} for sales`]) {
      const draft = await paul.post<{ id: string; reference: string }>('/api/requests', {
        title,
        amount: '214.00',
        currency: options.organization.currency,
        categoryId: category.id,
        vendorId: vendor.id,
        expenseDate: new Date().toISOString().slice(0, 10),
        justification: 'The printer in Sales is out of toner.',
      });
      await paul.post(`/api/requests/${draft.id}/submit`, {}, { 'idempotency-key': crypto.randomUUID() });
      refs.push(draft.reference);
    }
    // Findings are computed in the background (within minutes of a change); Refresh computes them now, as on Smart Analytics.
    await adam.post('/api/findings/refresh');

    const page = await pageAs(browser, 'paul', '/expense-coaching');
    await expect(page.getByRole('heading', { level: 1, name: 'Expense Coaching' })).toBeVisible();
    await expect(page.locator('[data-scaffold]')).toHaveCount(0);
    await expect(page.getByTestId('tips')).toContainText('Check before raising a request again');
    const months = page.getByTestId('months');
    await expect(months.getByRole('region', { name: 'Findings by month' }).getByRole('row')).toHaveCount(13);
    await expect(months.getByRole('link', { name: new RegExp(refs[0]!) })).toBeVisible();
    await expect(months.getByRole('link', { name: new RegExp(refs[1]!) })).toBeVisible();
    await expect(page.getByTestId('spend')).toContainText('Median in Sales');
    // Sales has four people with spend: no median (it would be a colleague's own figure), a line saying why.
    await expect(page.getByTestId('median-withheld')).toHaveText(
      /fewer than 5 people in your department have approved spend/,
    );
    await expect(page.getByTestId('spend')).not.toContainText('The middle of');
    await expect(page.getByRole('heading', { name: 'Returned requests' })).toBeVisible();
    await expectAccessible(page);
    await snap(page, 'expense-coaching');

    const phone = await pageAs(browser, 'paul', '/expense-coaching', MOBILE);
    await expect(phone.getByTestId('tips')).toContainText('Check before raising a request again');
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectAccessible(phone);
    await snap(phone, 'expense-coaching');
    for (const p of [page, phone]) await p.context().close();
    await context.close();
  });
});
