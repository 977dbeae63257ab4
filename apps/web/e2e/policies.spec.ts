import { expect, test, type Page } from '@playwright/test';
import { apiLogin, DESKTOP, expectAccessible, expectToast, MOBILE, signInAs, snap } from './fixtures';

/*
 * Policies: rita cannot use a blocked vendor (status blocked: not selectable; blocked by a
 * policy rule: the block finding shows live and the submission is refused); adam manages a
 * simple rule on /policy-management; olivia builds a rule with conditions on
 * /enhanced-policy-management, reads a rule's versions and runs a simulation.
 */

const suffix = () => Math.random().toString(36).slice(2, 8);

/** Types into the vendor search and picks the option once the list shows it (typing again if the list was closed). */
async function pickVendor(page: Page, text: string, option: RegExp) {
  const vendor = page.getByRole('combobox', { name: 'Vendor' });
  await expect(async () => {
    await vendor.fill(text);
    await page.getByRole('option', { name: option }).click({ timeout: 3_000 });
  }).toPass({ timeout: 20_000 });
}

async function choose(page: Page, field: RegExp | string, option: RegExp | string) {
  await page.getByRole('combobox', { name: field }).click();
  await page.getByRole('option', { name: option }).first().click();
}

test.describe('policies', () => {
  test('rita: a blocked vendor cannot be used, a policy-blocked vendor is refused live', async ({ page }) => {
    await signInAs(page, 'rita', undefined, '/new-request');
    await expect(page.getByRole('heading', { name: 'New Request' })).toBeVisible();
    await page.getByLabel(/^Title/).fill(`Fleet lease top-up ${suffix()}`);
    await page.getByLabel(/^Amount/).fill('60.00');
    await choose(page, /^Category/, /^Logistics/);

    const vendor = page.getByRole('combobox', { name: 'Vendor' });
    await vendor.fill('Pallet');
    const blocked = page.getByRole('option', { name: /Pallet Pro Ltd/ });
    await expect(blocked).toHaveAttribute('aria-disabled', 'true');
    await blocked.click({ force: true });
    await expect(vendor).not.toHaveValue('Pallet Pro Ltd');

    const checks = page.getByRole('region', { name: 'Policy checks' });
    await expect(checks).toContainText('No policy findings');
    const submit = page.getByRole('button', { name: 'Submit for approval' });
    await expect(submit).toBeEnabled();

    await pickVendor(page, 'Metro', /Metro Fleet Leasing/);
    await expect(vendor).toHaveValue('Metro Fleet Leasing');
    await expect(checks).toContainText('Metro Fleet Leasing is blocked by policy');
    await expect(checks).toContainText('Blocked');
    await expect(submit).toBeDisabled();

    // A warning does not stop anything: above 75 without a receipt.
    await page.getByLabel(/^Amount/).fill('90.00');
    await expect(checks).toContainText('A receipt is required above $75.00');

    await expectAccessible(page);
    await snap(page, 'policies-live-findings');
    await page.setViewportSize(MOBILE);
    await snap(page, 'policies-live-findings');
    await page.setViewportSize(DESKTOP);

    // Another vendor: the block goes away.
    await pickVendor(page, 'Harbor', /Harbor Fuel Supply/);
    await expect(checks).not.toContainText('blocked by policy');
    await expect(submit).toBeEnabled();

    // The server refuses the submission too (same engine).
    const login = await apiLogin(page.request, 'rita');
    const headers = { authorization: `Bearer ${login.tokens!.accessToken}`, 'x-device-id': login.deviceId! };
    const options = await (await page.request.get('/api/requests/vendor-options?q=Metro', { headers })).json();
    const metro = options.items.find((v: { name: string }) => v.name === 'Metro Fleet Leasing');
    const form = await (await page.request.get('/api/requests/options', { headers })).json();
    const category = form.categories.find((c: { code: string }) => c.code === 'LOG');
    const draft = await page.request.post('/api/requests', {
      headers,
      data: {
        title: `Fleet lease ${suffix()}`,
        amount: '60.00',
        currency: 'USD',
        categoryId: category.id,
        vendorId: metro.id,
      },
    });
    expect(draft.status()).toBe(201);
    const refused = await page.request.post(`/api/requests/${(await draft.json()).id}/submit`, { headers });
    expect(refused.status()).toBe(422);
    expect((await refused.json()).message).toBe('Metro Fleet Leasing is blocked by policy');
  });

  test('adam manages a simple rule on /policy-management', async ({ page }) => {
    const name = `Claims within 30 days ${suffix()}`;
    await signInAs(page, 'adam', undefined, '/policy-management');
    await expect(page.getByRole('heading', { name: 'Policy Management' })).toBeVisible();
    await expect(page.locator('[data-scaffold]')).toHaveCount(0);
    const table = page.getByRole('table', { name: 'Policy rules' });
    await expect(table).toContainText('Meals limit per request');
    await expect(table).toContainText('Meals: above 150 per request');

    await page.getByRole('button', { name: 'New rule' }).click();
    const dialog = page.getByRole('dialog', { name: 'New policy rule' });
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByLabel('Kind').selectOption('max_age');
    await dialog.getByLabel('Action').selectOption('warn');
    await dialog.getByLabel('Maximum age in days').fill('30');
    await dialog.getByRole('button', { name: 'Create rule' }).click();
    await expectToast(page, 'Rule created', `${name} is at version 1.`);
    const row = table.getByRole('row').filter({ hasText: name });
    await expect(row).toContainText('Expense older than 30 days');
    await expect(row).toContainText('Active');

    await row.getByRole('button', { name: `Actions for ${name}` }).click();
    await page.getByRole('menuitem', { name: 'Deactivate' }).click();
    await expectToast(page, 'Rule deactivated', 'version 2');
    await expect(row).toContainText('Inactive');

    await expectAccessible(page);
    await snap(page, 'policy-management');
    await page.setViewportSize(MOBILE);
    await snap(page, 'policy-management');
    await page.setViewportSize(DESKTOP);
  });

  test('olivia builds a rule with conditions, reads versions and runs a simulation', async ({ page }) => {
    const name = `Large reimbursements ${suffix()}`;
    await signInAs(page, 'olivia', undefined, '/enhanced-policy-management');
    await expect(page.getByRole('heading', { name: 'Enhanced Policy Management' })).toBeVisible();
    await expect(page.locator('[data-scaffold]')).toHaveCount(0);

    await page.getByRole('button', { name: 'New rule' }).click();
    const dialog = page.getByRole('dialog', { name: 'New policy rule' });
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByLabel('Action').selectOption('justify');
    await dialog.getByLabel('Priority').fill('15');
    await dialog.getByRole('button', { name: 'Condition', exact: true }).click();
    const first = dialog.getByRole('group', { name: 'Condition 1' });
    await first.getByLabel('Field').selectOption('amountOrg');
    await first.getByLabel('Operator').selectOption('gt');
    await first.getByLabel('Value').fill('1000');
    await dialog.getByRole('button', { name: 'Group', exact: true }).click();
    const group = dialog.getByRole('group', { name: 'Conditions, group 2' });
    const inner = group.getByRole('group', { name: /^Condition 1/ });
    await inner.getByLabel('Field').selectOption('kind');
    await inner.getByLabel('Operator').selectOption('eq');
    await inner.getByLabel('Value').selectOption('reimbursement');
    await dialog.getByRole('button', { name: 'Create rule' }).click();
    await expectToast(page, 'Rule created', `${name} is at version 1.`);
    const table = page.getByRole('table', { name: 'Policy rules' });
    await expect(table.getByRole('row').filter({ hasText: name })).toContainText(
      'When the conditions hold (2 conditions)',
    );

    // The Meals limit has a history: 200 then 150.
    const meals = table.getByRole('row').filter({ hasText: 'Meals limit per request' });
    await meals.getByRole('button', { name: 'Actions for Meals limit per request' }).click();
    await page.getByRole('menuitem', { name: 'Version history' }).click();
    const versions = page.getByRole('dialog', { name: 'Versions of Meals limit per request' });
    await expect(versions.getByRole('listitem')).toHaveCount(2);
    await expect(versions).toContainText('limit 200.00');
    await expect(versions).toContainText('limit 150.00');
    await versions.getByRole('button', { name: 'Close' }).click();

    const sim = page.getByRole('form', { name: 'Simulate a rule' });
    await sim.getByLabel('Rule to simulate').selectOption({ label: 'Meals limit per request (v2)' });
    await sim.getByLabel('Last N months').fill('12');
    await sim.getByRole('button', { name: 'Run simulation' }).click();
    await expect(page.getByTestId('simulation-summary')).toHaveText(
      /^Would have flagged [\d,]+ of [\d,]+ requests in the last 12 months$/,
    );

    await expectAccessible(page);
    await snap(page, 'enhanced-policy-management');
    await page.setViewportSize(MOBILE);
    await snap(page, 'enhanced-policy-management');
  });
});
