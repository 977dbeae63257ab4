import { expect, test, type Page } from '@playwright/test';
import { apiAs, DESKTOP, expectAccessible, expectToast, MOBILE, pageAs, signInAs, snap } from './fixtures';

// Letters only: digits in a message are normalized away when errors are grouped.
const marker = () => Array.from({ length: 8 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('');

/** Throws `message` from a timer in the page, outside React: an uncaught error the app reports by itself. */
async function throwInPage(page: Page, message: string) {
  const posted = page.waitForResponse((r) => r.url().endsWith('/api/error-reports') && r.request().method() === 'POST');
  await page.evaluate((text) => {
    setTimeout(() => {
      throw new TypeError(text);
    }, 0);
  }, message);
  expect((await posted).status()).toBe(202);
}

/*
 * rita's browser fails twice with one error (two page loads); a signed-out visitor's sign-in page
 * fails once. adam (admin) finds rita's error grouped, reads it, resolves it; it happens again and
 * comes back as regressed. rita herself is refused the screen.
 */
test.describe('error reports', () => {
  test('a real client error is reported, grouped, resolved, and comes back as regressed', async ({ page, browser }) => {
    const message = `Cannot read properties of undefined (reading 'total') ${marker()}`;
    const rita = await pageAs(browser, 'rita', '/requests');
    await expect(rita.getByRole('heading', { name: 'My Requests' })).toBeVisible();
    await throwInPage(rita, message);
    await rita.reload();
    await throwInPage(rita, message);

    const visitor = await browser.newPage();
    await visitor.goto('/auth');
    const signedOutMessage = `Sign-in form failed ${marker()}`;
    await throwInPage(visitor, signedOutMessage);
    await visitor.close();

    await signInAs(page, 'adam', undefined, '/error-reports');
    await expect(page.getByRole('heading', { name: 'Error Reports' })).toBeVisible();
    await expect(page.locator('[data-scaffold]')).toHaveCount(0);
    const table = page.getByRole('table', { name: 'Error reports' });
    await page.getByRole('searchbox', { name: 'Search errors' }).fill(message);
    const row = table.getByRole('row').filter({ hasText: message });
    await expect(table.getByRole('row')).toHaveCount(2);
    await expect(row.getByTestId('error-report-status')).toHaveText('Open');
    await expect(row).toContainText('Web app');
    await expect(row).toContainText('/requests');
    // Two occurrences, one person: one group, not two rows.
    await expect(row.getByRole('cell').nth(3)).toHaveText('2');
    await expect(row.getByRole('cell').nth(4)).toHaveText('1');
    await expect(row).toContainText(/Chrom/);
    await expectAccessible(page);
    await snap(page, 'error-reports');

    await row.getByRole('cell').first().click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('heading', { name: message })).toBeVisible();
    await expect(dialog.getByTestId('error-report-stack').first()).toContainText(`TypeError: ${message}`);
    await expect(dialog.getByTestId('error-report-users')).toContainText('@rita');
    await expect(dialog.getByTestId('error-report-users')).toContainText('2 times');
    await expect(dialog.getByText('2 occurrences in the last 30 days')).toBeVisible();
    await expectAccessible(page);
    await snap(page, 'error-report-detail');

    await dialog.getByRole('button', { name: 'Mark resolved' }).click();
    await expectToast(page, 'Error resolved');
    await expect(dialog.getByTestId('error-report-status')).toHaveText('Resolved');
    await expect(dialog).toContainText('by Adam Clarke');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(row.getByTestId('error-report-status')).toHaveText('Resolved');

    // It happens again: the group reopens by itself and says it regressed.
    await rita.reload();
    await throwInPage(rita, message);
    await rita.context().close();
    await page.reload();
    await expect(row.getByTestId('error-report-status')).toHaveText('Regressed');
    await expect(row.getByRole('cell').nth(3)).toHaveText('3');
    await row.getByRole('cell').first().click();
    await expect(dialog.getByText(/Regressed:.*happened again/)).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Mark resolved' })).toBeVisible();

    await page.setViewportSize(MOBILE);
    await snap(page, 'error-report-detail');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toHaveCount(0);
    const card = page.getByTestId('error-report-card').filter({ hasText: message });
    await expect(card).toBeVisible();
    await expect(card).toContainText('3 times');
    await expect(card).toContainText('Regressed');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(MOBILE.width);
    await snap(page, 'error-reports');
    await page.setViewportSize(DESKTOP);

    // The signed-out report counts no person, and says it happened signed out.
    await page.getByRole('searchbox', { name: 'Search errors' }).fill(signedOutMessage);
    const anonymous = table.getByRole('row').filter({ hasText: signedOutMessage });
    await expect(anonymous).toContainText('/auth');
    await expect(anonymous.getByRole('cell').nth(4)).toHaveText('0 (+1 signed out)');
  });

  test('a render failure is reported through the error boundary with its component stack', async ({
    browser,
    request,
  }) => {
    const rita = await pageAs(browser, 'rita', '/');
    // A list answer the screen cannot draw: the row is not an object.
    await rita.route('**/api/requests/mine?**', (route) =>
      route.fulfill({ json: { items: [null], total: 1, page: 1, pageSize: 25 } }),
    );
    const posted = rita.waitForResponse(
      (r) => r.url().endsWith('/api/error-reports') && r.request().method() === 'POST',
    );
    await rita.goto('/requests');
    await expect(rita.getByRole('heading', { name: 'Something went wrong' })).toBeVisible();
    const response = await posted;
    expect(response.status()).toBe(202);
    const sent = response.request().postDataJSON() as { message: string; componentStack?: string; route: string };
    expect(sent.route).toBe('/requests');
    expect(sent.componentStack).toBeTruthy();
    await rita.context().close();

    const adam = await apiAs(request, 'adam');
    const list = await adam.get<{ items: { id: string; message: string; route: string }[] }>(
      `/api/error-reports?q=${encodeURIComponent(sent.message.slice(0, 150))}&source=client`,
    );
    const group = list.items.find((i) => i.message === sent.message);
    expect(group?.route).toBe('/requests');
    const detail = await adam.get<{ componentStack: string | null; users: { username: string }[] }>(
      `/api/error-reports/${group!.id}`,
    );
    expect(detail.componentStack).toBeTruthy();
    expect(detail.users.map((u) => u.username)).toContain('rita');
  });

  test('rita (requester) is refused the screen and its calls', async ({ page, request }) => {
    await signInAs(page, 'rita', undefined, '/error-reports');
    await expect(page.getByTestId('access-restricted')).toBeVisible();
    await expect(page.getByRole('table', { name: 'Error reports' })).toHaveCount(0);
    const rita = await apiAs(request, 'rita');
    await expect(rita.get('/api/error-reports')).rejects.toThrow(/403/);
  });
});
