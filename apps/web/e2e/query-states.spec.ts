// Screens say when their data could not be loaded, with the server's reason and a Retry that
// loads it, through the one shared block: a banner on a page, inside a card, and one line where
// a banner would not fit.
import { expect, test, type Page } from '@playwright/test';
import { expectAccessible, MOBILE, signInAs, snap } from './fixtures';

/** Answers `pathname` with a 500 and `message` until `state.failing` is turned off. */
async function failing(page: Page, pathname: string, message: string) {
  const state = { failing: true, failed: 0 };
  await page.route(
    (url) => url.pathname === pathname,
    async (route) => {
      if (!state.failing) return route.fallback();
      state.failed += 1;
      await route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ message, code: 'INTERNAL' }),
      });
    },
  );
  return state;
}

test('the notification list says it could not load, and Retry loads it (max)', async ({ page }) => {
  const state = await failing(page, '/api/notifications', 'Notifications are resting');
  await signInAs(page, 'max', undefined, '/notifications');
  const list = page.getByRole('region', { name: 'Notification list' });
  const alert = list.getByRole('alert');
  await expect(alert).toContainText('Notifications are resting');
  expect(state.failed).toBeGreaterThanOrEqual(1);
  await expectAccessible(page);

  state.failing = false;
  await alert.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByTestId('notification-row').first()).toBeVisible();
  await expect(list.getByRole('alert')).toHaveCount(0);
});

test('a failing card on Auth Security fails alone, on the phone too, and Retry fills it (adam)', async ({ page }) => {
  await page.setViewportSize(MOBILE);
  const state = await failing(page, '/api/security/two-factor-adoption', 'Adoption figures are not ready');
  await signInAs(page, 'adam', undefined, '/auth-security');
  const alert = page.getByRole('alert').filter({ hasText: 'Adoption figures are not ready' });
  await expect(alert).toBeVisible();
  // The rest of the screen does not wait for it.
  await expect(page.getByRole('heading', { name: 'Auth Security' })).toBeVisible();
  await expect(
    page
      .getByRole('list', { name: 'Locked accounts and addresses' })
      .or(page.getByText('Nothing is locked right now.')),
  ).toBeVisible();
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(MOBILE.width);
  await snap(page, 'query-state-card-error');

  state.failing = false;
  await alert.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('list', { name: 'Two-factor adoption per role' })).toBeVisible();
  await expect(alert).toHaveCount(0);
});

test('the authorized domains on Request Access fail in one line, and Retry shows them', async ({ page }) => {
  const state = await failing(page, '/api/registration-requests/config', 'Settings are being updated');
  await page.goto('/register');
  const alert = page.getByRole('alert').filter({ hasText: 'Settings are being updated' });
  await expect(alert).toBeVisible();
  await expectAccessible(page);
  await snap(page, 'query-state-compact-error');

  state.failing = false;
  await alert.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByTestId('domain-chips').getByRole('listitem')).toHaveCount(5);
  await expect(alert).toHaveCount(0);
});
