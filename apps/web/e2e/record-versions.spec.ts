import { expect, test } from '@playwright/test';
import { apiLogin, DESKTOP, expectToast, MOBILE, signInAs, snap } from './fixtures';

/*
 * adam edits a vendor while the same vendor is changed through the API behind the form: the
 * save is refused instead of overwriting that change, and Reload shows what was saved. The
 * vendor is this test's own (created through the API).
 */
test.describe('stale edits never win silently (adam)', () => {
  test('a vendor changed behind the edit form: the save is refused, nothing is overwritten, Reload shows the new values', async ({ page, request }) => {
    const login = await apiLogin(request, 'adam');
    const headers = { Authorization: `Bearer ${login.tokens!.accessToken}`, 'X-Device-ID': login.deviceId! };
    const organizations = await request.get('/api/vendors/organizations', { headers });
    const foods = ((await organizations.json()) as { items: { id: string; name: string }[] }).items.find((o) => o.name === 'Meridian Foods')!;
    const suffix = Date.now().toString(36).toUpperCase();
    const name = `Concurrent Supplies ${suffix}`;
    const created = await request.post('/api/vendors', {
      headers,
      data: { organizationId: foods.id, name, taxId: `GB-CC-${suffix}`, contactName: 'Jane Original', paymentTermsDays: 30, currency: 'GBP' },
    });
    expect(created.status(), await created.text()).toBe(201);
    const vendor = (await created.json()) as { id: string; version: number };

    await signInAs(page, 'adam', undefined, '/vendor-management');
    await page.getByRole('searchbox', { name: 'Search vendors' }).fill(suffix);
    const row = page.getByRole('table', { name: 'Vendors' }).getByRole('row').filter({ hasText: name });
    await row.getByRole('button', { name: `Actions for ${name}` }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog', { name: `Edit ${name}` });
    await expect(dialog.getByLabel(/^Contact name/)).toHaveValue('Jane Original');
    await dialog.getByLabel(/^Contact name/).fill('Typed In The Form');

    // Someone else saves first (another tool: no If-Match).
    const behind = await request.patch(`/api/vendors/${vendor.id}`, { headers, data: { contactName: 'Changed Behind The Form', paymentTermsDays: 60 } });
    expect(behind.status(), await behind.text()).toBe(200);

    await dialog.getByRole('button', { name: 'Save' }).click();
    const alert = dialog.getByRole('alert');
    await expect(alert).toContainText('This record was changed by someone else. Reload to see the latest version.');
    await expect(alert.getByRole('button', { name: 'Reload' })).toBeVisible();
    // What the user typed is still there, and the other change was not overwritten.
    await expect(dialog.getByLabel(/^Contact name/)).toHaveValue('Typed In The Form');
    const stored = (await (await request.get(`/api/vendors/${vendor.id}`, { headers })).json()) as { contactName: string; paymentTermsDays: number; version: number };
    expect(stored).toMatchObject({ contactName: 'Changed Behind The Form', paymentTermsDays: 60, version: vendor.version + 1 });

    await snap(page, 'vendor-edit-version-conflict');
    await page.setViewportSize(MOBILE);
    await expect(alert.getByRole('button', { name: 'Reload' })).toBeVisible();
    await snap(page, 'vendor-edit-version-conflict');
    await page.setViewportSize(DESKTOP);

    await alert.getByRole('button', { name: 'Reload' }).click();
    await expect(dialog.getByLabel(/^Contact name/)).toHaveValue('Changed Behind The Form');
    await expect(dialog.getByLabel(/^Payment terms/)).toHaveValue('60');
    await expect(dialog.getByRole('alert')).toHaveCount(0);

    // Based on the reloaded copy, the save goes through.
    await dialog.getByLabel(/^Contact name/).fill('Jane After Reload');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'Vendor saved', `${name} was updated.`);
    const after = (await (await request.get(`/api/vendors/${vendor.id}`, { headers })).json()) as { contactName: string; paymentTermsDays: number; version: number };
    expect(after).toMatchObject({ contactName: 'Jane After Reload', paymentTermsDays: 60, version: vendor.version + 2 });
  });
});
