import { expect, test } from '@playwright/test';
import { gunzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { expectAccessible, MOBILE, signInAs, snap } from './fixtures';

/*
 * adam makes a backup, sees it written, downloads it and checks a restore of it with a dry run,
 * then opens the typed confirmation and cancels it. The restore itself ends every session on the
 * server these specs share, so it is proved by the API's integration test, not here.
 */
test.describe('backups (adam)', () => {
  test('create, list, download, dry run, and the restore confirmation', async ({ page }) => {
    await signInAs(page, 'adam', undefined, '/backup-management');
    await expect(page.getByRole('heading', { level: 1, name: 'Backup Management' })).toBeVisible();
    await expect(page.locator('[data-scaffold]')).toHaveCount(0);

    const create = page.getByRole('button', { name: 'Create backup now' });
    const started = page.waitForResponse(
      (res) => res.url().endsWith('/api/backups') && res.request().method() === 'POST',
    );
    await create.click();
    const backup = (await (await started).json()) as { id: string; name: string };
    const row = page.locator(`[data-testid="backup-row"][data-name="${backup.name}"]`);
    await expect(row.getByText('Ready')).toBeVisible({ timeout: 30_000 });
    await expect(row.getByText(/SHA-256 [0-9a-f]{64}/)).toBeVisible();
    await expect(row.getByText(/tables, [\d,]+ rows/)).toBeVisible();

    const downloading = page.waitForEvent('download');
    await row.getByRole('button', { name: `Download ${backup.name}` }).click();
    const file = await downloading;
    expect(file.suggestedFilename()).toBe(`${backup.name}.jsonl.gz`);
    const manifest = JSON.parse(
      gunzipSync(readFileSync((await file.path())!))
        .toString('utf8')
        .split('\n')[0]!,
    );
    expect(manifest).toMatchObject({ format: 'outlay-backup', name: backup.name });

    await expectAccessible(page);
    await snap(page, 'backup-management');

    await page.getByRole('link', { name: 'Restore from a backup' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Backup Recovery' })).toBeVisible();
    await page.getByLabel('Backup').click();
    await page.getByRole('option', { name: new RegExp(backup.name) }).click();
    await page.getByRole('button', { name: 'Check (dry run)' }).click();
    const report = page.getByTestId('dry-run-report');
    await expect(report.getByText('Checksum verified')).toBeVisible();
    await expect(report.getByText(/Schema version .* matches/)).toBeVisible();
    await expect(report.locator('[data-table="users"]')).toBeVisible();
    await expectAccessible(page);
    await snap(page, 'backup-recovery-dry-run');

    await page.getByRole('button', { name: 'Restore this backup…' }).click();
    const dialog = page.getByRole('alertdialog');
    await expect(dialog.getByText(`Restore ${backup.name}?`)).toBeVisible();
    await dialog.getByRole('button', { name: 'Restore the database' }).click();
    await expect(dialog.getByText(/Type the backup's name exactly/)).toBeVisible();
    await snap(page, 'backup-recovery-confirm');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toHaveCount(0);

    await page.setViewportSize(MOBILE);
    await page.goto('/backup-management');
    await expect(page.locator(`[data-testid="backup-row"][data-name="${backup.name}"]`)).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
    await snap(page, 'backup-management-phone');
    await page.goto('/backup-recovery');
    await page.getByRole('button', { name: 'Check (dry run)' }).click();
    await expect(page.getByTestId('dry-run-report')).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
    await snap(page, 'backup-recovery-phone');

    // Clean up: the file is deleted with its row.
    await page.goto('/backup-management');
    const mine = page.locator(`[data-testid="backup-row"][data-name="${backup.name}"]`);
    await mine.getByRole('button', { name: `Delete ${backup.name}` }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete backup' }).click();
    await expect(mine).toHaveCount(0);
  });
});
