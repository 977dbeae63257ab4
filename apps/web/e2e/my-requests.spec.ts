import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { apiAs, expectAccessible, MOBILE, pickOption, signInAs, snap } from './fixtures';

interface Summary {
  reference: string;
  categoryName: string | null;
  amountOrg: string;
  createdAt: string;
}

async function choose(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test.describe('My Requests filters and export (rita)', () => {
  test('category, date range and amount range narrow the list as the server does; the export has the same rows', async ({
    page,
    request,
  }) => {
    const api = await apiAs(request, 'rita');
    const all = await api.get<{ items: Summary[]; total: number }>('/api/requests/mine?pageSize=100');
    const category = all.items.find((r) => r.categoryName)!.categoryName!;

    await signInAs(page, 'rita', undefined, '/requests');
    await expect(page.getByRole('heading', { level: 1, name: 'My Requests' })).toBeVisible();
    const table = page.getByRole('table', { name: 'My requests' });
    await expect(table.getByRole('row').nth(1)).toBeVisible();

    await choose(page, 'Category', category);
    await expect(page).toHaveURL(/categoryId=/);
    const categoryId = new URL(page.url()).searchParams.get('categoryId')!;
    const byCategory = await api.get<{ items: Summary[]; total: number }>(
      `/api/requests/mine?categoryId=${categoryId}&pageSize=100`,
    );
    expect(byCategory.total).toBeGreaterThan(0);
    expect(byCategory.items.every((r) => r.categoryName === category)).toBe(true);
    const rows = table.getByRole('row');
    await expect(rows).toHaveCount(Math.min(byCategory.total, 25) + 1);
    await expect
      .poll(async () => (await rows.allInnerTexts()).slice(1).filter((t) => !t.includes(category)).length)
      .toBe(0);

    // A wide date range and an amount floor of zero keep every request of the category.
    await page.getByLabel('Created from').fill('2000-01-01');
    await expect(page).toHaveURL(/from=2000-01-01/);
    await page.getByLabel(/^Min amount/).fill('0');
    await page.getByLabel(/^Min amount/).press('Enter');
    await expect(page).toHaveURL(/minAmount=0/);
    await expect(rows).toHaveCount(Math.min(byCategory.total, 25) + 1);
    await snap(page, 'my-requests-filters');

    const csv = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const file = await csv;
    expect(file.suggestedFilename()).toMatch(/^my-requests.*\.csv$/);
    const text = readFileSync((await file.path())!, 'utf8');
    expect(
      text
        .replace(/^\uFEFF/, '')
        .trim()
        .split(/\r?\n/).length - 1,
    ).toBe(byCategory.total);
    for (const r of byCategory.items) expect(text).toContain(r.reference);
    const xlsx = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export Excel' }).click();
    expect((await xlsx).suggestedFilename()).toMatch(/^my-requests.*\.xlsx$/);

    // A maximum below every amount leaves nothing.
    await page.getByLabel(/^Max amount/).fill('0');
    await page.getByLabel(/^Max amount/).press('Enter');
    await expect(page).toHaveURL(/maxAmount=0/);
    await expect(page.getByText('No requests match your filters').filter({ visible: true })).toBeVisible();
    await expectAccessible(page);

    await page.setViewportSize(MOBILE);
    await page.goto(`/requests?categoryId=${categoryId}`);
    await expect(page.getByRole('heading', { level: 1, name: 'My Requests' })).toBeVisible();
    await expect(page.getByLabel('Created from')).toBeVisible();
    await snap(page, 'my-requests-filters');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
  });
});

test('Requests Management offers a department filter without choosing an organization first (carla)', async ({
  page,
  request,
}) => {
  await signInAs(page, 'carla', undefined, '/requests-management');
  await expect(page.getByRole('heading', { level: 1, name: 'Requests Management' })).toBeVisible();
  const department = page.getByRole('combobox', { name: 'Department', exact: true });
  // Rita's and Max's department: the seeded history gives it many requests.
  const label = 'Operations · Meridian Logistics';
  await pickOption(page, department, label);
  await expect(page).toHaveURL(/departmentId=/);
  const departmentId = new URL(page.url()).searchParams.get('departmentId')!;
  const api = await apiAs(request, 'carla');
  const expected = await api.get<{ total: number }>(`/api/requests?departmentId=${departmentId}&pageSize=10`);
  expect(expected.total).toBeGreaterThan(0);
  await expect(page.getByText(new RegExp(`^\\d+–\\d+ of ${expected.total}$`)).filter({ visible: true })).toBeVisible();
  await expect(department).toHaveText(label);
  await snap(page, 'requests-management-department');
  await page.setViewportSize(MOBILE);
  await snap(page, 'requests-management-department');
});
