import { expect, test } from '@playwright/test';
import { ROUTE_CATALOGUE } from '../src/lib/route-catalogue';
import { expectAccessible, MOBILE, signInAs, snap } from './fixtures';

const signedIn = ROUTE_CATALOGUE.filter((r) => r.access === 'signed-in');
const MOBILE_SAMPLE = new Set([
  '/',
  '/new-request',
  '/approvals',
  '/payroll',
  '/user-management',
  '/executive-ai-copilot',
]);

test('every signed-in route opens without an error (olivia, owner)', async ({ page }) => {
  test.setTimeout(240_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`${page.url()}: ${m.text()}`);
  });
  await signInAs(page, 'olivia');
  await expect(page.getByRole('heading', { name: /, Olivia$/ })).toBeVisible();

  const scaffolds: string[] = [];
  for (const route of signedIn) {
    await page.goto(route.path);
    await expect(page.getByRole('heading', { level: 1 }).first(), route.path).toBeVisible();
    await expect(page.getByText('Something went wrong')).toHaveCount(0);
    await expect(page.getByTestId('access-restricted'), `${route.path} is allowed for the owner`).toHaveCount(0);
    await expect(page).toHaveTitle(`${route.title} · Outlay`);
    if ((await page.locator('[data-scaffold]').count()) > 0) scaffolds.push(route.path);
    await snap(page, `route${route.path === '/' ? '-dashboard' : route.path.replace(/\//g, '-')}`);
  }
  // Every screen of the catalogue is built: none is a placeholder.
  expect(scaffolds).toEqual([]);
  expect(errors).toEqual([]);

  await page.setViewportSize(MOBILE);
  for (const path of MOBILE_SAMPLE) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await snap(page, `route${path === '/' ? '-dashboard' : path.replace(/\//g, '-')}`);
  }
});

test('the dashboard greets by name with the role and passes axe (dana)', async ({ page }) => {
  await signInAs(page, 'dana');
  await expect(page.getByRole('heading', { name: /, Dana$/ })).toBeVisible();
  await expect(page.getByRole('main').getByTestId('role-badge')).toHaveText('Department Head');
  await expectAccessible(page);
});

test('each signed-in screen is its own chunk loaded on demand', async ({ page }) => {
  await page.goto('/auth');
  await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible();
  const scripts = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((e) => e.name)
      .filter((n) => n.endsWith('.js')),
  );
  expect(scripts.some((s) => /payroll-page|dashboard-page|app-shell/.test(s))).toBe(false);
});
