import { expect, test, type Locator, type Page } from '@playwright/test';
import { DESKTOP, MOBILE, seriousViolations, signInAs, signInWithForm, snap } from './fixtures';

/**
 * The small things a careful user notices: where focus goes after Escape, a dashboard that
 * can be retried, toasts that leave the top bar alone, wide tables, words in badges, and the
 * routing screen's accessibility. Read-only: nothing here changes shared data.
 */

async function expectFocused(page: Page, locator: Locator) {
  await expect(locator).toBeFocused();
  // And it is the element itself, not merely somewhere on the page.
  expect(await page.evaluate(() => document.activeElement?.tagName)).not.toBe('BODY');
}

test.describe('after Escape closes a dialog, focus is back on what opened it', () => {
  test('a form dialog opened by a button (New user)', async ({ page }) => {
    await signInAs(page, 'olivia', undefined, '/user-management');
    const opener = page.getByRole('button', { name: 'New user' });
    await opener.click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expectFocused(page, opener);
  });

  test('a form dialog and a confirm dialog opened from a row actions menu (departments)', async ({ page }) => {
    await signInAs(page, 'olivia', undefined, '/department-management');
    const table = page.getByRole('table', { name: 'Departments' });
    const trigger = table
      .locator('tbody tr')
      .filter({ hasText: /\bActive\b/ })
      .first()
      .getByRole('button', { name: /^Actions for / });
    await expect(trigger).toBeVisible();

    await trigger.click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expectFocused(page, trigger);

    // By keyboard this time: Enter opens the menu, the item opens the confirmation.
    await page.keyboard.press('Enter');
    await page.getByRole('menuitem', { name: 'Deactivate' }).click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(confirm).toHaveCount(0);
    await expectFocused(page, trigger);
  });

  test('the request sheet opened from a row returns focus to the row', async ({ page }) => {
    await signInAs(page, 'olivia', undefined, '/requests-management');
    const row = page.getByRole('table', { name: 'Requests' }).locator('tbody tr[tabindex]').first();
    await expect(row).toBeVisible();
    await row.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('dialog')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expectFocused(page, row);
  });
});

test('/smart-approval-routing has no serious or critical accessibility violation on either tab (adam)', async ({
  page,
}) => {
  await signInAs(page, 'adam', undefined, '/smart-approval-routing');
  await expect(page.getByRole('heading', { level: 1, name: 'Smart Approval Routing' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Everyone in scope' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  // The other tab's panel is the one that exists then.
  await page.getByRole('tab', { name: 'Everyone in scope' }).click();
  await expect(page.getByRole('tabpanel', { name: 'Everyone in scope' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test('the dashboard says it could not load, and Retry loads it (lukas)', async ({ page }) => {
  let failing = true;
  let failed = 0;
  await page.route(
    (url) => url.pathname === '/api/dashboard',
    async (route) => {
      if (!failing) return route.fallback();
      failed += 1;
      await route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ message: 'Internal Server Error', code: 'INTERNAL' }),
      });
    },
  );
  await signInAs(page, 'lukas');
  const alert = page.getByRole('main').getByRole('alert');
  await expect(alert).toBeVisible();
  const retry = alert.getByRole('button', { name: 'Retry' });
  await expect(retry).toBeVisible();
  expect(failed).toBeGreaterThanOrEqual(1);
  await expect(page.getByText('Alerts', { exact: true })).toHaveCount(0);

  failing = false;
  await retry.click();
  await expect(page.getByText('Alerts', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Retry' })).toHaveCount(0);
});

test('the Login Successful toast does not cover the bell or the avatar (khalid)', async ({ page }) => {
  for (const viewport of [DESKTOP, MOBILE]) {
    await page.setViewportSize(viewport);
    await page.context().clearCookies();
    await page.goto('/auth');
    await page.evaluate(() => localStorage.clear());
    await signInWithForm(page, 'khalid');
    const toast = page.getByTestId('toast').filter({ hasText: 'Login Successful' });
    await expect(toast).toBeVisible();
    // A toast under the pointer stays (Radix pauses its timer): on a slow machine the dashboard can
    // take longer to draw the bell than the toast's five seconds.
    await toast.hover();
    await expect(page).toHaveURL(/\/$/);
    const bell = page
      .getByRole('button', { name: /^Notifications/ })
      .or(page.getByRole('link', { name: /^Notifications/ }))
      .first();
    // Phones keep the avatar in the bottom bar's More sheet; the bell stays on top.
    const avatar = page.getByRole('button', { name: /^Account menu for / });
    await expect(bell).toBeVisible();
    if (viewport === DESKTOP) await expect(avatar).toBeVisible();
    await expect(toast).toBeVisible();
    const t = (await toast.boundingBox())!;
    for (const target of viewport === DESKTOP ? [bell, avatar] : [bell]) {
      const b = (await target.boundingBox())!;
      const overlaps = t.x < b.x + b.width && b.x < t.x + t.width && t.y < b.y + b.height && b.y < t.y + t.height;
      expect(overlaps, `toast ${JSON.stringify(t)} over ${JSON.stringify(b)} at ${viewport.width}px`).toBe(false);
    }
    await snap(page, 'login-toast');
    await page.evaluate(() => localStorage.clear());
  }
});

test('Requests Management at 1280 px: the table scrolls inside its card with the first column pinned (olivia)', async ({
  page,
}) => {
  await signInAs(page, 'olivia', undefined, '/requests-management');
  const table = page.getByRole('table', { name: 'Requests' });
  // A loaded row (its actions name the request), not one of the skeleton rows drawn while the page loads.
  await expect(
    table
      .locator('tbody tr')
      .filter({ has: page.getByRole('button', { name: /^Actions for REQ-/ }) })
      .first(),
  ).toBeVisible();
  const pinned = async () => {
    const scroller = table.locator('xpath=..');
    return scroller.evaluate((el) => {
      const before = el.scrollWidth > el.clientWidth;
      el.scrollLeft = el.scrollWidth;
      const box = el.getBoundingClientRect();
      const head = el.querySelector('thead th')!.getBoundingClientRect();
      const cell = el.querySelector('tbody tr td')!.getBoundingClientRect();
      return {
        scrolls: before,
        scrolled: el.scrollLeft,
        headLeft: Math.round(head.left - box.left),
        cellLeft: Math.round(cell.left - box.left),
        pageWide: document.documentElement.scrollWidth > window.innerWidth,
      };
    });
  };
  const wide = await pinned();
  expect(wide.pageWide, 'the page itself does not scroll sideways').toBe(false);
  if (wide.scrolls) {
    expect(wide.scrolled).toBeGreaterThan(0);
    expect(wide.headLeft).toBe(0);
    expect(wide.cellLeft).toBe(0);
  }
  await snap(page, 'requests-management-table');

  // Narrower, with every column shown, it must scroll: the reference column stays put.
  await page.setViewportSize({ width: 900, height: 800 });
  await page.getByRole('button', { name: 'Columns' }).click();
  for (const name of ['Department', 'Vendor']) {
    const item = page.getByRole('menuitemcheckbox', { name });
    if ((await item.getAttribute('aria-checked')) !== 'true') await item.click();
  }
  await page.keyboard.press('Escape');
  const narrow = await pinned();
  expect(narrow.scrolls).toBe(true);
  expect(narrow.scrolled).toBeGreaterThan(0);
  expect(narrow.headLeft).toBe(0);
  expect(narrow.cellLeft).toBe(0);
  expect(narrow.pageWide).toBe(false);
  await expect(table.locator('thead th').first()).toHaveText('Reference');
  await expect(table.locator('thead th').first()).toBeInViewport();
});

test('Role management writes statuses as words with a capital (olivia)', async ({ page }) => {
  await signInAs(page, 'olivia', undefined, '/role-management');
  await expect(page.getByRole('heading', { level: 1, name: 'Role Management' })).toBeVisible();
  const table = page
    .getByRole('table')
    .filter({ has: page.getByRole('columnheader', { name: 'Status' }) })
    .first();
  await expect(table.locator('tbody tr').first()).toBeVisible();
  const statuses = await table
    .locator('tbody td')
    .filter({ hasText: /^(active|pending|inactive)$/i })
    .allTextContents();
  expect(statuses.length).toBeGreaterThan(0);
  for (const s of statuses) expect(s).toMatch(/^(Active|Pending|Inactive)$/);
});

test('list screens show cards with the fields that matter on a phone (olivia)', async ({ page }) => {
  await page.setViewportSize(MOBILE);
  await signInAs(page, 'olivia', undefined, '/requests-management');
  const card = page.getByTestId('request-card').first();
  await expect(card).toBeVisible();
  await expect(page.getByRole('table', { name: 'Requests' })).toBeHidden();
  // Reference, title, status, amount and age.
  await expect(card).toContainText(/[A-Z]+-\d/);
  await expect(card).toContainText(/\d+ (min|h|d) old/);
  await expect(card).toContainText(/\d/);
  await expect(card.getByRole('button', { name: /^Open / })).toBeVisible();
  await snap(page, 'requests-management-cards');

  for (const [path, label] of [
    ['/user-management', 'Users'],
    ['/department-management', 'Departments'],
    ['/audit-history', 'Audit events'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('list', { name: label })).toBeVisible();
    await expect(page.getByRole('table', { name: label })).toBeHidden();
    await expect(page.getByTestId('list-card').first()).toBeVisible();
  }
});
