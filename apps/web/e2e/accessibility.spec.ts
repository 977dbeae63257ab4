import { expect, test, type Page } from '@playwright/test';
import { ROUTE_CATALOGUE, type RouteEntry } from '../src/lib/route-catalogue';
import { DESKTOP, MOBILE, seriousViolations, signInAs } from './fixtures';

/**
 * Every screen of the signed-in frame passes axe-core with its default rules (no serious or
 * critical violation) at desktop and phone width, and no screen skips a heading level. The owner
 * may open them all. Read-only: nothing here changes shared data.
 */
const screens = ROUTE_CATALOGUE.filter(
  (r) => r.access === 'signed-in' || (r.access === 'always' && r.frame === 'shell'),
);

async function auditAll(page: Page, viewport: { width: number; height: number }, part: readonly RouteEntry[]) {
  await page.setViewportSize(viewport);
  await signInAs(page, 'olivia');
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  const found: string[] = [];
  const check = async (route: RouteEntry) => {
    await page.goto(route.path);
    await expect(page.getByRole('heading', { level: 1 }).first(), route.path).toBeVisible();
    await expect(page.getByText('Something went wrong'), route.path).toHaveCount(0);
    for (const v of await seriousViolations(page, ['heading-order']))
      found.push(`${route.path} at ${viewport.width}px: ${v}`);
  };
  for (const route of part) await check(route);
  expect(found).toEqual([]);
}

// Four tests of about twenty screens each, run by whichever workers are free: one pass over
// every screen at one width took minutes, close to its time limit on a busy machine.
const half = Math.ceil(screens.length / 2);
const parts = [screens.slice(0, half), screens.slice(half)] as const;

test.describe('every signed-in screen passes axe (olivia, owner)', () => {
  test.describe.configure({ mode: 'parallel' });

  test('covers every signed-in screen', () => {
    expect(screens.length, 'screens audited').toBeGreaterThan(40);
    expect(parts[0].length + parts[1].length).toBe(screens.length);
  });

  for (const [name, viewport] of [
    ['1280×800', DESKTOP],
    ['390×844', MOBILE],
  ] as const) {
    parts.forEach((part, i) => {
      test(`at ${name}, screens ${i === 0 ? 'first' : 'second'} half (${part[0]!.path} to ${part.at(-1)!.path})`, async ({
        page,
      }) => {
        test.setTimeout(300_000);
        await auditAll(page, viewport, part);
      });
    });
  }
});
