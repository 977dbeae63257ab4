import { expect, test, type Page } from '@playwright/test';
import { findRoute, screensFor } from '../src/lib/route-catalogue';
import { apiLogin, DESKTOP, MOBILE, signInAs, snap } from './fixtures';

/*
 * Every screen a person may open is reachable from the dashboard by what the app shows: the
 * links on each page and the command palette's entries. The crawler starts at /, collects the
 * links every page shows and the palette's entries, and visits each newly found screen once
 * (breadth first). What it must reach comes from the app's own route catalogue filtered by the
 * permissions GET /api/auth/user reports, never from a list typed here.
 */

// Every test signs in on its own and changes only what it creates: they may run side by side.
test.describe.configure({ mode: 'parallel' });

function normalize(href: string): string | null {
  if (!href.startsWith('/') || href.startsWith('//')) return null;
  const path = href.split(/[?#]/)[0] ?? '/';
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

/** A screen of the signed-in frame (links to sign-out flows or files are not followed). */
function isScreen(path: string): boolean {
  const route = findRoute(path);
  return Boolean(route && route.frame === 'shell' && route.access !== 'public-only');
}

/** Client-side navigation, as a link click does it (no reload per screen). */
async function goTo(page: Page, path: string) {
  await page.evaluate((to) => window.history.pushState(null, '', to), path);
  const title = `${findRoute(path)!.title} · Outlay`;
  // Checked every animation frame (an expect polls at growing intervals): sixty screens add up.
  await page.waitForFunction((t) => document.title === t && document.querySelector('main h1') !== null, title, {
    timeout: 15_000,
  });
  await expect(page.getByRole('heading', { level: 1 }).first(), path).toBeVisible();
}

async function paletteEntries(page: Page): Promise<string[]> {
  await page.keyboard.press('ControlOrMeta+k');
  const palette = page.getByTestId('command-palette');
  await expect(palette.getByRole('option').first()).toBeVisible();
  const hrefs = await palette
    .locator('[cmdk-item]')
    .evaluateAll((items) => items.map((i) => i.getAttribute('data-href') ?? ''));
  await page.keyboard.press('Escape');
  await expect(palette).toHaveCount(0);
  return hrefs;
}

async function crawl(page: Page, username: string) {
  const login = await apiLogin(page.request, username);
  const me = await page.request.get('/api/auth/user', {
    headers: { Authorization: `Bearer ${login.tokens!.accessToken}`, 'X-Device-ID': login.deviceId! },
  });
  expect(me.status()).toBe(200);
  const { permissions } = (await me.json()) as { permissions: string[] };
  const expected = screensFor(permissions).map((r) => r.path);

  await signInAs(page, username);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

  const seen = new Set<string>(['/']);
  const queue: string[] = ['/'];
  const refused: string[] = [];
  const discover = (hrefs: string[], from: string, found: Map<string, string>) => {
    for (const href of hrefs) {
      const path = normalize(href);
      if (path && isScreen(path) && !seen.has(path)) {
        seen.add(path);
        queue.push(path);
        found.set(path, from);
      }
    }
  };
  const via = new Map<string, string>();
  let current = '/';
  while (queue.length > 0) {
    const path = queue.shift()!;
    if (path !== current) await goTo(page, path);
    current = path;
    if ((await page.getByTestId('access-restricted').count()) > 0)
      refused.push(`${path} (linked from ${via.get(path)})`);
    const links = await page.locator('a[href]').evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
    discover(links, path, via);
    // The palette is the same on every screen: reading it once, at the start, is enough.
    if (path === '/') discover(await paletteEntries(page), 'the command palette', via);
  }

  expect(
    expected.filter((p) => !seen.has(p)),
    `${username}: screens never reached`,
  ).toEqual([]);
  expect(refused, `${username}: links shown to screens the role may not open`).toEqual([]);
  return { expected, seen };
}

for (const username of ['adam', 'carla', 'max', 'rita']) {
  test(`every screen ${username} may open is reachable from the dashboard by links and the command palette`, async ({
    page,
  }) => {
    test.setTimeout(240_000);
    const { expected, seen } = await crawl(page, username);
    expect(expected.length).toBeGreaterThan(10);
    expect(seen.size).toBeGreaterThanOrEqual(expected.length);
  });
}

test.describe('command palette', () => {
  test('Ctrl+K opens it; it lists only the screens the role may open; arrows and Enter open one; Escape returns focus (max)', async ({
    page,
  }) => {
    await signInAs(page, 'max');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const opener = page.getByTestId('command-palette-button');
    await opener.focus();
    await page.keyboard.press('ControlOrMeta+k');
    const palette = page.getByRole('dialog', { name: 'Go to a screen' });
    await expect(palette).toBeVisible();
    await expect(palette.getByRole('combobox', { name: 'Screen name' })).toBeFocused();
    await expect(palette.getByRole('option', { name: 'Expense Tracking' })).toBeVisible();
    await expect(palette.getByRole('option', { name: 'My Requests' })).toBeVisible();
    // A manager holds no payroll or user-management permission: the palette does not offer them.
    await expect(palette.getByRole('option', { name: 'Payroll Management' })).toHaveCount(0);
    await expect(palette.getByRole('option', { name: 'User Management' })).toHaveCount(0);
    await snap(page, 'command-palette');

    await page.keyboard.press('Escape');
    await expect(palette).toHaveCount(0);
    await expect(opener).toBeFocused();

    await opener.click();
    await expect(palette).toBeVisible();
    await page.keyboard.type('approval routing');
    // The best match comes first and is highlighted; Enter opens it.
    await expect(palette.getByRole('option').first()).toHaveText('Smart Approval Routing');
    await expect(palette.getByRole('option').first()).toHaveAttribute('aria-selected', 'true');
    await expect(palette.getByRole('option', { name: 'Payroll Management' })).toHaveCount(0);
    await snap(page, 'command-palette-search');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL('/smart-approval-routing');
    await expect(palette).toHaveCount(0);

    await page.keyboard.press('ControlOrMeta+k');
    await page.keyboard.type('zzzz');
    await expect(palette.getByText('No screen by that name.')).toBeVisible();
    await page.keyboard.press('Escape');

    // Arrow keys move through the entries in order; Enter opens the highlighted one.
    await page.keyboard.press('ControlOrMeta+k');
    await expect(palette.getByRole('option').first()).toHaveAttribute('aria-selected', 'true');
    const second = (await palette.getByRole('option').nth(1).textContent())!.trim();
    await page.keyboard.press('ArrowDown');
    await expect(palette.getByRole('option').nth(1)).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('Enter');
    await expect(page).toHaveTitle(`${second} · Outlay`);
  });

  test('on the phone the top bar search button opens it and an entry navigates (rita)', async ({ page }) => {
    await page.setViewportSize(MOBILE);
    await signInAs(page, 'rita');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    // The search button joins the phone's top bar without pushing the role badge off the screen.
    const badge = await page.getByRole('banner').getByTestId('role-badge').boundingBox();
    expect(badge!.x + badge!.width).toBeLessThanOrEqual(MOBILE.width);
    await page.getByRole('button', { name: 'Search screens' }).click();
    const palette = page.getByRole('dialog', { name: 'Go to a screen' });
    await expect(palette.getByRole('option', { name: 'My Requests' })).toBeVisible();
    await expect(palette.getByRole('option', { name: 'Requests Management' })).toHaveCount(0);
    await snap(page, 'command-palette');
    await palette.getByRole('option', { name: 'Expense Tracking' }).click();
    await expect(page).toHaveURL('/expense-tracking');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(MOBILE.width);
  });
});

test.describe('paths between screens', () => {
  test('tabs join My Requests and Requests Management, Approvals and Approvals Management, for those allowed both (carla)', async ({
    page,
  }) => {
    await signInAs(page, 'carla', undefined, '/requests');
    const tabs = page.getByRole('navigation', { name: 'Request screens' });
    await expect(tabs.getByRole('link', { name: 'My Requests' })).toHaveAttribute('aria-current', 'page');
    await snap(page, 'tabs-my-requests');
    await tabs.getByRole('link', { name: 'Requests Management' }).click();
    await expect(page).toHaveURL('/requests-management');
    await expect(page.getByRole('heading', { level: 1, name: 'Requests Management' })).toBeVisible();
    await expect(
      page.getByRole('navigation', { name: 'Request screens' }).getByRole('link', { name: 'Requests Management' }),
    ).toHaveAttribute('aria-current', 'page');

    await page.goto('/approvals');
    const approvalTabs = page.getByRole('navigation', { name: 'Approval screens' });
    await approvalTabs.getByRole('link', { name: 'Approvals Management' }).click();
    await expect(page).toHaveURL('/approvals-management');
    await expect(
      page.getByRole('navigation', { name: 'Approval screens' }).getByRole('link', { name: 'Approvals', exact: true }),
    ).toBeVisible();
    await snap(page, 'tabs-approvals-management');

    await page.setViewportSize(MOBILE);
    await page.goto('/requests');
    await expect(page.getByRole('navigation', { name: 'Request screens' })).toBeVisible();
    await snap(page, 'tabs-my-requests');
  });

  test('a requester sees no tab to a screen the role may not open (rita)', async ({ page }) => {
    await signInAs(page, 'rita', undefined, '/requests');
    await expect(page.getByRole('heading', { level: 1, name: 'My Requests' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Requests Management' })).toHaveCount(0);
    await expect(page.getByTestId('route-tabs')).toHaveCount(0);
  });

  test("a requester reaches My Requests and Expense Tracking from the dashboard and My Requests from the phone's More sheet (rita)", async ({
    page,
  }) => {
    await signInAs(page, 'rita');
    const main = page.getByRole('main');
    await main.getByRole('link', { name: 'Expense tracking' }).click();
    await expect(page).toHaveURL('/expense-tracking');
    await page.goBack();
    await main.getByRole('link', { name: 'My requests', exact: true }).click();
    await expect(page).toHaveURL('/requests');
    await page.goto('/');
    await expect(page.getByTestId('mine-card')).toBeVisible();
    await snap(page, 'dashboard-paths');

    await page.setViewportSize(MOBILE);
    await expect(main.getByRole('link', { name: 'Expense tracking' })).toBeVisible();
    await snap(page, 'dashboard-paths');
    await page.getByTestId('mobile-nav').getByRole('button', { name: 'More' }).click();
    const sheet = page.getByTestId('more-sheet');
    await expect(sheet.getByRole('region', { name: 'More' }).getByRole('link', { name: 'My Requests' })).toBeVisible();
    await snap(page, 'more-sheet-my-requests');
    await sheet.getByRole('link', { name: 'My Requests' }).click();
    await expect(page).toHaveURL('/requests');
    await expect(page.getByRole('heading', { level: 1, name: 'My Requests' })).toBeVisible();
  });

  test('after submitting, New Request links to My Requests (rita)', async ({ page }) => {
    const title = `Label printer ribbons ${Math.random().toString(36).slice(2, 8)}`;
    await signInAs(page, 'rita', undefined, '/new-request');
    await page.getByLabel(/^Title/).fill(title);
    await page.getByLabel(/^Description/).fill('Ribbons for the dispatch label printer.');
    await page.getByLabel(/^Amount/).fill('42.50');
    await page.getByRole('combobox', { name: /^Category/ }).click();
    await page
      .getByRole('option', { name: /^Office Supplies/ })
      .first()
      .click();
    await page.getByLabel(/^Justification/).fill('The printer is out of ribbons.');
    await page.getByRole('button', { name: 'Submit for approval' }).click();
    const saved = page.getByTestId('request-saved');
    // Small office supplies may be approved at once by the auto-approval rule: either way it is saved.
    await expect(saved).toContainText(title);
    await snap(page, 'new-request-saved');
    await page.setViewportSize(MOBILE);
    await expect(saved.getByRole('link', { name: 'My Requests' })).toBeVisible();
    await snap(page, 'new-request-saved');
    await saved.getByRole('link', { name: 'My Requests' }).click();
    await expect(page).toHaveURL('/requests');
    // On a phone the list is cards: the new request is the one visible.
    await expect(page.getByRole('main').getByText(title, { exact: true }).filter({ visible: true })).toBeVisible();
  });

  test('workflow builder links to Smart Approval Routing, role management to Custom Roles (adam)', async ({ page }) => {
    await signInAs(page, 'adam', undefined, '/workflow-customization');
    // At 1280 px the admin's menus and the search button share the top bar without overlapping.
    const settings = await page.getByTestId('desktop-nav').getByRole('button', { name: 'Settings' }).boundingBox();
    const search = await page.getByTestId('command-palette-button').boundingBox();
    expect(settings!.x + settings!.width).toBeLessThanOrEqual(search!.x);
    await page.getByRole('main').getByRole('link', { name: 'Smart Approval Routing' }).click();
    await expect(page).toHaveURL('/smart-approval-routing');
    await page.goto('/role-management');
    await expect(page.getByRole('heading', { level: 1, name: 'Role Management' })).toBeVisible();
    await snap(page, 'role-management-links');
    await page.getByRole('main').getByRole('link', { name: 'Custom Roles' }).click();
    await expect(page).toHaveURL('/custom-roles');
    await page.setViewportSize(MOBILE);
    await page.goto('/workflow-customization');
    await expect(page.getByRole('main').getByRole('link', { name: 'Smart Approval Routing' })).toBeVisible();
    await snap(page, 'workflow-builder-links');
    await page.setViewportSize(DESKTOP);
    await page.reload();
    await expect(page.getByText(/^\d+ workflows?$/)).toBeVisible();
    await snap(page, 'workflow-builder-links');
  });
});
