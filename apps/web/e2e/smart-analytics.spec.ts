import { expect, test } from '@playwright/test';
import { apiAs, apiLogin, expectAccessible, expectToast, MOBILE, pageAs, snap } from './fixtures';

const suffix = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

// Chloe (Meridian Foods) raises the same order twice and one purchase in two parts just under the
// 5,000.00 approval threshold; Carla refreshes the findings and dismisses the duplicate, Adam turns
// the split into a rule.
// The requests carry a marker of their own, so other specs' findings do not matter.
test.describe('Smart Analytics', () => {
  test('findings linked to their requests: dismissed with a reason, turned into a policy rule, on a desktop and a phone', async ({
    browser,
    request,
  }) => {
    const marker = suffix();
    const context = await browser.newContext();
    const [chloe, adam] = await Promise.all([apiAs(context.request, 'chloe'), apiAs(context.request, 'adam')]);
    const options = await chloe.get<{
      categories: { id: string; name: string }[];
      organization: { id: string; currency: string };
    }>('/api/requests/options');
    const category = options.categories.find((c) => c.name.startsWith('Office Supplies')) ?? options.categories[0]!;
    const vendor = await adam.post<{ id: string }>('/api/vendors', {
      organizationId: options.organization.id,
      name: `Label Works ${marker}`,
      taxId: `LW-${marker}`,
      paymentTermsDays: 30,
      currency: options.organization.currency,
    });
    await adam.post(`/api/vendors/${vendor.id}/status`, { status: 'active' });
    const today = new Date().toISOString().slice(0, 10);
    const raise = async (title: string, amount: string, vendorId?: string) => {
      const draft = await chloe.post<{ id: string; reference: string }>('/api/requests', {
        title,
        amount,
        currency: options.organization.currency,
        categoryId: category.id,
        expenseDate: today,
        justification: 'Ordered for the packing line this week.',
        ...(vendorId ? { vendorId } : {}),
      });
      await chloe.post(`/api/requests/${draft.id}/submit`, {}, { 'idempotency-key': crypto.randomUUID() });
      return draft;
    };
    const twinA = await raise(`Pallet labels ${marker}`, '321.00', vendor.id);
    const twinB = await raise(`Pallet labels ${marker} again`, '321.00', vendor.id);
    const partA = await raise(`Cold room shelving ${marker} part 1`, '4500.00');
    const partB = await raise(`Cold room shelving ${marker} part 2`, '4700.00');

    // Carla reviews findings (audit.read) but does not make policy rules.
    const carla = await pageAs(browser, 'carla', '/smart-analytics');
    await expect(carla.getByRole('heading', { level: 1, name: 'Smart Analytics' })).toBeVisible();
    await expect(carla.locator('[data-scaffold]')).toHaveCount(0);
    await expect(carla.getByTestId('findings-meta')).toContainText('Computed');
    // The findings were computed before these requests: Refresh (from the keyboard) recomputes them now.
    const refreshed = carla.waitForResponse(
      (r) => r.url().includes('/api/findings/refresh') && r.request().method() === 'POST',
    );
    await carla.getByRole('button', { name: 'Refresh', exact: true }).focus();
    await carla.keyboard.press('Enter');
    expect((await refreshed).status()).toBe(200);
    await expect(carla.getByRole('button', { name: 'Refresh', exact: true })).toBeVisible();
    await carla.getByRole('button', { name: /^Likely duplicate \(\d+\)$/ }).click();
    const duplicate = carla.getByTestId('finding').filter({ hasText: `Pallet labels ${marker}` });
    await expect(duplicate).toHaveCount(1);
    await expect(duplicate.getByRole('link', { name: twinA.reference })).toHaveAttribute('href', /\/requests\?id=/);
    await expect(duplicate.getByRole('link', { name: twinB.reference })).toBeVisible();
    await expect(duplicate).toContainText('Same vendor and amount on the same day');
    await expect(duplicate.getByRole('button', { name: 'Turn into a policy rule' })).toHaveCount(0);
    await expectAccessible(carla);
    await snap(carla, 'smart-analytics');

    await duplicate.getByRole('button', { name: 'Dismiss' }).click();
    const dialog = carla.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Dismiss finding' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('Say why (at least 3 characters)');
    await dialog.getByLabel('Reason').fill('Two separate label orders, checked with Chloe');
    await dialog.getByRole('button', { name: 'Dismiss finding' }).click();
    await expectToast(carla, 'Finding dismissed');
    await expect(duplicate).toHaveCount(0);
    await carla.getByRole('combobox', { name: 'Findings' }).click();
    await carla.getByRole('option', { name: 'Dismissed', exact: true }).click();
    const dismissed = carla.getByTestId('finding').filter({ hasText: `Pallet labels ${marker}` });
    await expect(dismissed.getByTestId('dismissal')).toContainText('Dismissed by Carla Mendes');
    await expect(dismissed.getByTestId('dismissal')).toContainText('Two separate label orders, checked with Chloe');

    // Adam, on a phone, turns the split purchase into a rule (Warn, so other specs' submissions go ahead).
    const phone = await pageAs(browser, 'adam', '/smart-analytics', MOBILE);
    await phone.getByRole('button', { name: /^Split purchase \(\d+\)$/ }).click();
    const split = phone.getByTestId('finding').filter({ hasText: `Cold room shelving ${marker}` });
    await expect(split).toHaveCount(1);
    await expect(split.getByRole('link', { name: partA.reference })).toBeVisible();
    await expect(split.getByRole('link', { name: partB.reference })).toBeVisible();
    // The demo history may hold a request of Chloe's in the same band that week (it follows the
    // calendar): the finding then has three, and the screen must say what the server found.
    const found = await adam.get<{
      items: { requestCount: number; requests: { id: string }[]; total: { amount: string } | null }[];
    }>('/api/findings?kind=split');
    const same = found.items.find((f) => f.requests.some((r) => r.id === partA.id));
    expect(same?.requests.map((r) => r.id)).toEqual(expect.arrayContaining([partA.id, partB.id]));
    await expect(split).toContainText(`${same!.requestCount} requests just under the £5,000.00 approval threshold`);
    expect(same!.total).not.toBeNull();
    const [pounds, pence] = same!.total!.amount.split('.');
    await expect(split).toContainText(`£${Number(pounds).toLocaleString('en-GB')}.${pence ?? '00'}`);
    if (same!.requestCount === 2) expect(same!.total!.amount).toBe('9200.00');
    const width = await phone.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await expectAccessible(phone);
    await snap(phone, 'smart-analytics');
    await split.getByRole('button', { name: 'Turn into a policy rule' }).click();
    const ruleDialog = phone.getByRole('dialog');
    await expect(ruleDialog).toContainText(
      'Custom rule: amounts from £4,000.00 up to £5,000.00 in Meridian Foods need a justification',
    );
    await ruleDialog.getByRole('combobox', { name: 'When a request matches' }).click();
    await phone.getByRole('option', { name: 'Warn' }).click();
    await ruleDialog.getByRole('button', { name: 'Create rule' }).click();
    await expectToast(phone, 'Policy rule created', 'Just under the £5,000.00 approval threshold');
    await expect(split).toHaveCount(0);

    // The rule exists; it is switched off again so other specs' requests are not flagged by it.
    const rules = await adam.get<{
      items: { id: string; name: string; kind: string; action: string; organizationName: string | null }[];
    }>(`/api/policies?q=${encodeURIComponent('Just under the £5,000.00')}&pageSize=100`);
    const rule = rules.items.find((r) => r.organizationName === 'Meridian Foods' && r.kind === 'custom');
    expect(rule).toMatchObject({ action: 'warn' });
    const login = await apiLogin(request, 'adam');
    const off = await request.patch(`/api/policies/${rule!.id}/active`, {
      headers: { Authorization: `Bearer ${login.tokens!.accessToken}`, 'X-Device-ID': login.deviceId! },
      data: { active: false },
    });
    expect(off.status()).toBe(200);
    for (const p of [carla, phone]) await p.context().close();
    await context.close();
  });

  test('people without reports.read do not reach it', async ({ browser }) => {
    const leo = await pageAs(browser, 'leo', '/smart-analytics');
    await expect(leo.getByTestId('access-restricted')).toBeVisible();
    await expect(leo.getByTestId('finding')).toHaveCount(0);
    await leo.context().close();
  });
});
