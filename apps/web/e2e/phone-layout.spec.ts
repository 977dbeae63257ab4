import { expect, test, type Page } from '@playwright/test';
import { roleHas, type Role } from '@outlay/contracts';
import { ROUTE_CATALOGUE, type RouteEntry } from '../src/lib/route-catalogue';
import { MOBILE, networkQuiet, signInAs, snap } from './fixtures';

/**
 * At 390×844 no signed-in screen scrolls sideways. Every route of the catalogue that a person
 * may open is visited as that person, and none of them is a placeholder (`data-scaffold`).
 */
const signedIn = ROUTE_CATALOGUE.filter(
  (r) => r.access === 'signed-in' || (r.access === 'always' && r.frame === 'shell'),
);
const mayOpen = (role: Role) => (route: RouteEntry) => !route.permission || roleHas(role, route.permission);
const shotName = (route: RouteEntry) => `phone${route.path === '/' ? '-dashboard' : route.path.replace(/\//g, '-')}`;

async function overflow(page: Page) {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const doc = document.documentElement.scrollWidth;
    // Name what sticks out, so a failure says where to look.
    const culprits = [...document.querySelectorAll<HTMLElement>('main *, header *, nav *')]
      .filter((el) => {
        const box = el.getBoundingClientRect();
        return box.width > 0 && box.right > width + 1 && getComputedStyle(el).position !== 'fixed';
      })
      .filter((el) => !el.closest('[data-scroll-x]') || el.matches('[data-scroll-x]'))
      // Screen-reader-only content is clipped to a pixel: it cannot be what sticks out.
      .filter((el) => !el.closest('.sr-only'))
      .slice(0, 5)
      .map(
        (el) =>
          `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${String(el.className).split(' ').slice(0, 4).join('.')} → ${Math.round(el.getBoundingClientRect().right)}px`,
      );
    return { width, doc, culprits };
  });
}

async function visitAll(page: Page, username: string, role: Role, shots: boolean) {
  await page.setViewportSize(MOBILE);
  await signInAs(page, username);
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  const wide: string[] = [];
  const scaffolds: string[] = [];
  const routes = signedIn.filter(mayOpen(role));
  for (const route of routes) {
    await page.goto(route.path);
    await expect(page.getByRole('heading', { level: 1 }).first(), route.path).toBeVisible();
    await expect(page.getByTestId('access-restricted'), `${username} may open ${route.path}`).toHaveCount(0);
    if ((await page.locator('[data-scaffold]').count()) > 0) scaffolds.push(route.path);
    await networkQuiet(page, 300);
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
    // A chart's tooltip, as a tap near its right edge leaves it open, must not widen the page either.
    for (const chart of await page.locator('.recharts-wrapper').all()) {
      await chart.scrollIntoViewIfNeeded();
      const box = await chart.boundingBox();
      if (box) await page.mouse.move(box.x + box.width * 0.9, box.y + box.height / 2);
    }
    const { width, doc, culprits } = await overflow(page);
    if (doc > width) wide.push(`${route.path}: ${doc}px > ${width}px ${culprits.join(' | ')}`);
    if (shots) await snap(page, shotName(route));
  }
  expect(scaffolds, 'placeholder screens').toEqual([]);
  expect(routes.length, 'screens visited').toBeGreaterThan(5);
  expect(wide).toEqual([]);
}

test.describe('at phone width nothing scrolls sideways', () => {
  test('every built screen the owner may open (olivia)', async ({ page }) => {
    test.setTimeout(300_000);
    await visitAll(page, 'olivia', 'owner', true);
  });

  test('every built screen a requester may open (yusuf)', async ({ page }) => {
    test.setTimeout(180_000);
    await visitAll(page, 'yusuf', 'requester', false);
  });
});
