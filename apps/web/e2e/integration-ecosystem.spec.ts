import { expect, test } from '@playwright/test';
import { expectAccessible, MOBILE, signInAs, snap } from './fixtures';

/*
 * adam makes a key limited to vendor management, sees it once, uses it from outside the browser
 * (allowed on vendors, refused on users), then revokes it and finds it refused.
 */
test.describe('API integrations (adam)', () => {
  test('make, use and revoke an API key', async ({ page, request }) => {
    const name = `Vendor sync ${Math.random().toString(36).slice(2, 8)}`;
    await signInAs(page, 'adam', undefined, '/integration-ecosystem');
    await expect(page.getByRole('heading', { level: 1, name: 'API Integrations' })).toBeVisible();
    await expect(page.locator('[data-scaffold]')).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'API documentation' })).toHaveAttribute('href', '/api/docs');

    await page.getByRole('button', { name: 'New API key' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill(name);
    // Administrators do not approve payroll, so the picker does not offer it.
    await expect(dialog.getByLabel('Approve payroll runs', { exact: true })).toHaveCount(0);
    await dialog.getByLabel('Manage vendors', { exact: true }).check();
    await expectAccessible(page);
    await snap(page, 'integration-ecosystem-new-key');
    await dialog.getByRole('button', { name: 'Make key' }).click();
    await expect(dialog).toBeHidden();

    const secret = page.getByTestId('api-key-secret');
    await expect(secret).toContainText('olk_');
    const key = (await secret.textContent())!.trim();
    const item = page.getByTestId('api-key-item').filter({ hasText: name });
    await expect(item).toContainText('Active');
    await expect(item).toContainText('never used');
    await snap(page, 'integration-ecosystem');

    const auth = { Authorization: `Bearer ${key}` };
    expect((await request.get('/api/vendors', { headers: auth })).status()).toBe(200);
    expect((await request.get('/api/users', { headers: auth })).status()).toBe(403);

    await page.getByRole('button', { name: 'I have saved it' }).click();
    await expect(secret).toBeHidden();
    await page.reload();
    await expect(item).toContainText('last used');

    await item.getByRole('button', { name: `Revoke ${name}` }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke key' }).click();
    await expect(item).toContainText('Revoked');
    expect((await request.get('/api/vendors', { headers: auth })).status()).toBe(401);
  });

  test('phone layout', async ({ page }) => {
    await page.setViewportSize(MOBILE);
    await signInAs(page, 'adam', undefined, '/integration-ecosystem');
    await expect(page.getByRole('heading', { level: 1, name: 'API Integrations' })).toBeVisible();
    await expect(page.getByTestId('api-key-item').first().or(page.getByTestId('api-keys-empty'))).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await snap(page, 'integration-ecosystem');
  });
});
