import { expect, test } from '@playwright/test';
import { apiLogin, DESKTOP, expectToast, MOBILE, signInAs, snap } from './fixtures';

/*
 * adam edits a vendor while the same vendor is changed through the API behind the form: the
 * save is refused instead of overwriting that change, and Reload shows what was saved. The
 * vendor is Cotswold Dairy Co, which no other test uses (vendors.spec counts the vendors, so
 * this test creates none); its contact and terms are put back at the end.
 */
const VENDOR = 'Cotswold Dairy Co';

test.describe('stale edits never win silently (adam)', () => {
  test('a vendor changed behind the edit form: the save is refused, nothing is overwritten, Reload shows the new values', async ({
    page,
    request,
  }) => {
    const login = await apiLogin(request, 'adam');
    const headers = { Authorization: `Bearer ${login.tokens!.accessToken}`, 'X-Device-ID': login.deviceId! };
    const found = await request.get(`/api/vendors?q=${encodeURIComponent(VENDOR)}`, { headers });
    const vendor = (
      (await found.json()) as {
        items: { id: string; name: string; contactName: string | null; paymentTermsDays: number; version: number }[];
      }
    ).items.find((v) => v.name === VENDOR)!;
    try {
      await signInAs(page, 'adam', undefined, '/vendor-management');
      await page.getByRole('searchbox', { name: 'Search vendors' }).fill(VENDOR);
      const row = page.getByRole('table', { name: 'Vendors' }).getByRole('row').filter({ hasText: VENDOR });
      await row.getByRole('button', { name: `Actions for ${VENDOR}` }).click();
      await page.getByRole('menuitem', { name: 'Edit' }).click();
      const dialog = page.getByRole('dialog', { name: `Edit ${VENDOR}` });
      await expect(dialog.getByLabel(/^Contact name/)).toHaveValue(vendor.contactName ?? '');
      await dialog.getByLabel(/^Contact name/).fill('Typed In The Form');

      // Someone else saves first (another tool: no If-Match).
      const behind = await request.patch(`/api/vendors/${vendor.id}`, {
        headers,
        data: { contactName: 'Changed Behind The Form', paymentTermsDays: 60 },
      });
      expect(behind.status(), await behind.text()).toBe(200);

      await dialog.getByRole('button', { name: 'Save' }).click();
      const alert = dialog.getByRole('alert');
      await expect(alert).toContainText('This record was changed by someone else. Reload to see the latest version.');
      await expect(alert.getByRole('button', { name: 'Reload' })).toBeVisible();
      // What the user typed is still there, and the other change was not overwritten.
      await expect(dialog.getByLabel(/^Contact name/)).toHaveValue('Typed In The Form');
      const stored = (await (await request.get(`/api/vendors/${vendor.id}`, { headers })).json()) as {
        contactName: string;
        paymentTermsDays: number;
        version: number;
      };
      expect(stored).toMatchObject({
        contactName: 'Changed Behind The Form',
        paymentTermsDays: 60,
        version: vendor.version + 1,
      });

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
      await expectToast(page, 'Vendor saved', `${VENDOR} was updated.`);
      const after = (await (await request.get(`/api/vendors/${vendor.id}`, { headers })).json()) as {
        contactName: string;
        paymentTermsDays: number;
        version: number;
      };
      expect(after).toMatchObject({
        contactName: 'Jane After Reload',
        paymentTermsDays: 60,
        version: vendor.version + 2,
      });
    } finally {
      const restored = await request.patch(`/api/vendors/${vendor.id}`, {
        headers,
        data: { contactName: vendor.contactName, paymentTermsDays: vendor.paymentTermsDays },
      });
      expect(restored.status(), await restored.text()).toBe(200);
    }
  });
});
