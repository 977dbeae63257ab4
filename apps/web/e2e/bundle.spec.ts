import { gzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';

test('the sign-in route loads at most 150 KB of JavaScript (gzip)', async ({ page }) => {
  const sizes = new Map<string, number>();
  page.on('response', async (response) => {
    if (!response.url().endsWith('.js')) return;
    const body = await response.body().catch(() => null);
    if (body) sizes.set(response.url(), gzipSync(body).length);
  });
  await page.goto('/auth', { waitUntil: 'networkidle' });
  await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible();
  const total = [...sizes.values()].reduce((a, b) => a + b, 0);
  test.info().annotations.push({ type: 'sign-in-js-gzip', description: `${(total / 1024).toFixed(1)} KB in ${sizes.size} files` });
  expect(total).toBeLessThanOrEqual(150 * 1024);
});
