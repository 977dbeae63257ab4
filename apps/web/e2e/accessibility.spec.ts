import { expect, test, type Page } from '@playwright/test';
import { ROUTES, type AppRoute } from '../src/app/routes';
import { DESKTOP, MOBILE, seriousViolations, signInAs } from './fixtures';

/**
 * Every screen of the signed-in frame passes axe-core with its default rules (no serious or
 * critical violation) at desktop and phone width, and no screen skips a heading level. The owner
 * may open them all. Read-only: nothing here changes shared data.
 */
const screens = ROUTES.filter((r) => r.access === 'signed-in' || (r.access === 'always' && r.frame === 'shell'));

async function auditAll(page: Page, viewport: { width: number; height: number }) {
  await page.setViewportSize(viewport);
  await signInAs(page, 'olivia');
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  const found: string[] = [];
  const check = async (route: AppRoute) => {
    await page.goto(route.path);
    await expect(page.getByRole('heading', { level: 1 }).first(), route.path).toBeVisible();
    await expect(page.getByText('Something went wrong'), route.path).toHaveCount(0);
    for (const v of await seriousViolations(page, ['heading-order'])) found.push(`${route.path} at ${viewport.width}px: ${v}`);
  };
  for (const route of screens) await check(route);
  expect(screens.length, 'screens audited').toBeGreaterThan(40);
  expect(found).toEqual([]);
}

test.describe('every signed-in screen passes axe (olivia, owner)', () => {
  test('at 1280×800', async ({ page }) => {
    test.setTimeout(420_000);
    await auditAll(page, DESKTOP);
  });

  test('at 390×844', async ({ page }) => {
    test.setTimeout(420_000);
    await auditAll(page, MOBILE);
  });
});
