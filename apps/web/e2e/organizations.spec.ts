import { expect, test, type Page } from '@playwright/test';
import { apiAs, DESKTOP, expectAccessible, expectToast, MOBILE, pageAs, signInAs, snap } from './fixtures';

/** adam (admin) runs the group's structure screens: nothing destructive, only additions and one FX correction. */

async function pickOption(page: Page, label: string, option: string) {
  await page.getByRole('dialog').getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function bothSizes(page: Page, name: string) {
  await page.setViewportSize(DESKTOP);
  await expectAccessible(page);
  await snap(page, name);
  await page.setViewportSize(MOBILE);
  await expectAccessible(page);
  await snap(page, name);
  await page.setViewportSize(DESKTOP);
}

test.describe.serial('group structure (adam)', () => {
  test('organizations: the five companies with currency and fiscal year', async ({ page }) => {
    await signInAs(page, 'adam', undefined, '/organization-management');
    await expect(page.getByRole('heading', { name: 'Organization Management' })).toBeVisible();
    const table = page.getByRole('table', { name: 'Organizations' });
    await expect(table.getByRole('row')).toHaveCount(6);
    await expect(table.getByRole('row', { name: /Meridian Foods/ })).toContainText('GBP');
    await expect(table.getByRole('row', { name: /Meridian Foods/ })).toContainText('April');
    await expect(page.locator('[data-scaffold]')).toHaveCount(0);
    await page.getByRole('button', { name: 'New subsidiary' }).click();
    await expect(page.getByRole('dialog', { name: 'New subsidiary' })).toBeVisible();
    await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
    await expect(page.getByRole('dialog').getByText('Name is required')).toBeVisible();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await bothSizes(page, 'organization-management');
  });

  test('departments: create one with a head and a parent', async ({ page }) => {
    await signInAs(page, 'adam', undefined, '/department-management');
    await expect(page.getByRole('heading', { name: 'Department Management' })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Departments' }).getByRole('row').nth(1)).toBeVisible();
    await page.getByRole('button', { name: 'New department' }).click();
    const dialog = page.getByRole('dialog', { name: 'New department' });
    await pickOption(page, 'Organization', 'Meridian Logistics');
    await dialog.getByLabel('Name').fill('Fleet Maintenance');
    await dialog.getByLabel('Code').fill('ML-FLEET');
    await dialog.getByLabel('Cost center').fill('CC-ML-FLT');
    await pickOption(page, 'Department head', 'Max Fischer');
    await pickOption(page, 'Parent department', 'Operations (ML-OPS)');
    await snap(page, 'department-dialog');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expectToast(page, 'Department created', 'Fleet Maintenance in Meridian Logistics');
    await expect(dialog).toBeHidden();

    await page.getByRole('searchbox', { name: 'Search departments' }).fill('fleet');
    const row = page.getByRole('row', { name: /Fleet Maintenance/ });
    await expect(row).toContainText('Max Fischer');
    await expect(row).toContainText('Operations');
    await expect(row).toContainText('CC-ML-FLT');

    // The same code again is refused with the server's words, inside the dialog.
    await page.getByRole('button', { name: 'New department' }).click();
    await pickOption(page, 'Organization', 'Meridian Logistics');
    await dialog.getByLabel('Name').fill('Fleet again');
    await dialog.getByLabel('Code').fill('ML-FLEET');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(dialog.getByRole('alert')).toContainText(
      'A department with code ML-FLEET already exists in Meridian Logistics',
    );
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('searchbox', { name: 'Search departments' }).fill('');
    await expect(page.getByRole('table', { name: 'Departments' }).getByRole('row')).toHaveCount(26);
    await bothSizes(page, 'department-management');
  });

  test('categories: the limits are the policy rules, with their currency and a link to each rule; a sub-category', async ({
    page,
  }) => {
    await signInAs(page, 'adam', undefined, '/category-management');
    await expect(page.getByRole('heading', { name: 'Category Management' })).toBeVisible();
    const table = page.getByRole('table', { name: 'Categories' });
    await expect(table.getByRole('row', { name: /Travel/ })).toContainText('6100');
    // Meals: the one per-request limit (the policy's 150, in adam's company's dollars) and the one receipt threshold.
    const meals = table.getByRole('row').filter({ has: page.getByRole('cell', { name: 'Meals', exact: true }) });
    await expect(meals).toContainText('$150.00');
    await expect(meals).toContainText('$75.00');
    await expect(meals).not.toContainText('250');
    await expect(meals.getByRole('link', { name: 'Meals limit per request' })).toHaveAttribute(
      'href',
      '/policy-management?q=Meals%20limit%20per%20request',
    );
    await expect(meals.getByRole('link', { name: 'Receipt required above 75' })).toBeVisible();
    await bothSizes(page, 'category-management');

    await page.getByRole('button', { name: 'New category' }).click();
    const dialog = page.getByRole('dialog', { name: 'New category' });
    await expect(dialog).toContainText('Per-request limits and receipt thresholds are policy rules');
    await expect(dialog.getByLabel('Per-request limit')).toHaveCount(0);
    await dialog.getByLabel('Name').fill('Air travel');
    await dialog.getByLabel('Code').fill('trv-air');
    await dialog.getByLabel('GL account').fill('6101');
    await pickOption(page, 'Parent category', 'Travel (TRV)');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expectToast(page, 'Category created', 'Air travel (TRV-AIR)');
    const row = table.getByRole('row', { name: /Air travel/ });
    await expect(row).toContainText('TRV-AIR');
    await expect(row).toContainText('No limit');

    // The link opens the rule where the number is changed, with its version history.
    await meals.getByRole('link', { name: 'Meals limit per request' }).click();
    await expect(page.getByRole('heading', { name: 'Policy Management', level: 1 })).toBeVisible();
    const rules = page.getByRole('table', { name: 'Policy rules' });
    await expect(rules.getByRole('row', { name: /Meals limit per request/ })).toContainText(
      'Meals: above 150 per request',
    );
    await expect(rules.getByRole('row', { name: /limit per request/ })).toHaveCount(1);
  });

  test('advanced: hierarchy, settings, intercompany links and an FX correction', async ({ page }) => {
    await signInAs(page, 'adam', undefined, '/advanced-organization-management');
    await expect(page.getByRole('heading', { name: 'Advanced Organization Management' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Move Meridian Tech' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Move Meridian Group' })).toHaveCount(0);
    // The move dialog offers other companies only; cancelled, nothing moves.
    await page.getByRole('button', { name: 'Move Meridian Tech' }).click();
    await page.getByRole('dialog').getByRole('combobox', { name: 'New parent' }).click();
    await expect(page.getByRole('option', { name: 'Meridian Energy (ME)' })).toBeVisible();
    await expect(page.getByRole('option', { name: /Meridian Tech/ })).toHaveCount(0);
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await bothSizes(page, 'advanced-organization-hierarchy');

    await page.getByRole('tab', { name: 'Settings' }).click();
    await expect(page.getByLabel('Approval threshold')).toHaveValue('5000.00');
    await expectAccessible(page);
    await snap(page, 'advanced-organization-settings');

    await page.getByRole('tab', { name: 'Intercompany' }).click();
    await expect(page.getByRole('row', { name: /Meridian Energy \(intercompany\)/ })).toContainText(
      'Meridian Logistics',
    );
    await expectAccessible(page);

    await page.getByRole('tab', { name: 'FX rates' }).click();
    await page.getByRole('combobox', { name: 'Base currency' }).click();
    await page.getByRole('option', { name: 'EUR', exact: true }).click();
    const table = page.getByRole('table', { name: 'FX rates' });
    await expect(table.getByRole('row')).toHaveCount(19);
    await table
      .getByRole('button', { name: /^Actions for EUR\/USD/ })
      .first()
      .click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Closing rate').fill('1.0999');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'FX rate saved', 'EUR/USD');
    await expect(table.getByRole('row').nth(1)).toContainText('1.0999');
    await bothSizes(page, 'advanced-organization-fx');
  });

  test('organizations: a new subsidiary with its country and time zone, both picked by search', async ({
    page,
    request,
  }) => {
    await signInAs(page, 'adam', undefined, '/organization-management');
    await page.getByRole('button', { name: 'New subsidiary' }).click();
    const dialog = page.getByRole('dialog', { name: 'New subsidiary' });
    await dialog.getByLabel('Name').fill('Meridian Nordic');
    await dialog.getByLabel('Code').fill('mn');
    await dialog.getByLabel('Base currency').fill('SEK');
    const country = dialog.getByRole('combobox', { name: 'Country' });
    await country.click();
    await country.fill('swed');
    await page.getByRole('option', { name: 'Sweden' }).click();
    await expect(country).toHaveValue('Sweden');
    const zone = dialog.getByRole('combobox', { name: 'Time zone' });
    await zone.click();
    await zone.fill('stockholm');
    await page.getByRole('option', { name: 'Europe/Stockholm' }).click();
    await expect(zone).toHaveValue('Europe/Stockholm');
    await expectAccessible(page);
    await snap(page, 'organization-country-time-zone');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expectToast(page, 'Subsidiary created', 'Meridian Nordic (MN)');

    const api = await apiAs(request, 'adam');
    const list = await api.get('/api/organizations?q=Meridian%20Nordic');
    expect((list as { items: unknown[] }).items).toEqual([
      expect.objectContaining({ code: 'MN', country: 'SE', timeZone: 'Europe/Stockholm' }),
    ]);

    // Editing shows both as saved, by name; the keyboard picks the new zone.
    const row = page.getByRole('table', { name: 'Organizations' }).getByRole('row', { name: /Meridian Nordic/ });
    await row.getByRole('button', { name: 'Actions for Meridian Nordic' }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Meridian Nordic' });
    await expect(edit.getByRole('combobox', { name: 'Country' })).toHaveValue('Sweden');
    const editZone = edit.getByRole('combobox', { name: 'Time zone' });
    await expect(editZone).toHaveValue('Europe/Stockholm');
    await editZone.click();
    await editZone.fill('Helsinki');
    await expect(page.getByRole('option', { name: 'Europe/Helsinki' })).toBeVisible();
    await editZone.press('ArrowDown');
    await editZone.press('Enter');
    await expect(editZone).toHaveValue('Europe/Helsinki');
    await page.setViewportSize(MOBILE);
    await snap(page, 'organization-country-time-zone');
    await page.setViewportSize(DESKTOP);
    await edit.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'Organization saved', 'Meridian Nordic');
    const saved = await api.get('/api/organizations?q=Meridian%20Nordic');
    expect((saved as { items: unknown[] }).items).toEqual([
      expect.objectContaining({ country: 'SE', timeZone: 'Europe/Helsinki' }),
    ]);
  });
});

test.describe('the Admin menu for a cfo', () => {
  test('carla opens the organization, department and category screens read-only; adam can change them', async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const carla = await pageAs(browser, 'carla', '/organization-management');
    const screens = [
      {
        path: '/organization-management',
        heading: 'Organization Management',
        create: 'New subsidiary',
        row: 'Meridian Logistics',
      },
      { path: '/department-management', heading: 'Department Management', create: 'New department', row: 'Operations' },
      { path: '/category-management', heading: 'Category Management', create: 'New category', row: 'Travel' },
    ];
    for (const s of screens) {
      await carla.goto(s.path);
      await expect(carla.getByRole('heading', { name: s.heading, level: 1 })).toBeVisible();
      await expect(carla.getByRole('note')).toContainText('Read-only for your role');
      await expect(carla.getByRole('cell', { name: s.row }).first()).toBeVisible();
      await expect(carla.getByRole('button', { name: s.create })).toHaveCount(0);
      await expect(carla.getByRole('button', { name: /^Actions for / })).toHaveCount(0);
      await expect(carla.getByText('no access', { exact: false })).toHaveCount(0);
    }
    await expectAccessible(carla);
    await snap(carla, 'admin-menu-read-only');
    await carla.setViewportSize(MOBILE);
    await snap(carla, 'admin-menu-read-only');

    const adam = await pageAs(browser, 'adam', '/category-management');
    await expect(adam.getByRole('button', { name: 'New category' })).toBeVisible();
    await expect(adam.getByRole('note')).toHaveCount(0);
    await adam.context().close();
    await carla.context().close();
  });
});
