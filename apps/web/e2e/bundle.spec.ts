import { gzipSync } from 'node:zlib';
import { expect, test, type Page } from '@playwright/test';
import { signInAs } from './fixtures';

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
  test.info().annotations.push({
    type: 'sign-in-js-gzip',
    description: `${(total / 1024).toFixed(1)} KB in ${sizes.size} files`,
  });
  expect(total).toBeLessThanOrEqual(150 * 1024);
});

test.describe("the page asks for the first screen's files before the entry has run", () => {
  const preloaded = (page: Page) =>
    page
      .locator('head link[rel="modulepreload"]')
      .evaluateAll((links) => links.map((l) => l.getAttribute('href') ?? ''));

  test('signed out: the sign-in screen, not the frame', async ({ page }) => {
    const early: string[] = [];
    page.on('request', (r) => early.push(new URL(r.url()).pathname));
    await page.goto('/auth');
    await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible();
    const links = await preloaded(page);
    expect(links.some((h) => /\/assets\/auth-page-[\w-]+\.js$/.test(h))).toBe(true);
    expect(links.some((h) => /app-shell|dashboard-page/.test(h))).toBe(false);
    expect(early.some((p) => /^\/assets\/early-[\w-]+\.js$/.test(p))).toBe(true);
  });

  test('signed in on /: the frame and the dashboard, not the sign-in screen', async ({ page }) => {
    await signInAs(page, 'adam');
    await page.goto('/');
    await expect(page.getByRole('heading', { name: /, Adam$/ })).toBeVisible();
    const links = await preloaded(page);
    expect(links.some((h) => /\/assets\/app-shell-[\w-]+\.js$/.test(h))).toBe(true);
    expect(links.some((h) => /\/assets\/dashboard-page-[\w-]+\.js$/.test(h))).toBe(true);
    expect(links.some((h) => /auth-page/.test(h))).toBe(false);
  });
});

test.describe("the page's early script asks for the first reads, and the app takes its answers", () => {
  /** Each API read of the page's load, with the script that asked for it (Chromium's initiator). */
  async function apiReads(page: Page) {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    const reads: { path: string; by: string }[] = [];
    cdp.on('Network.requestWillBeSent', (event) => {
      const url = new URL(event.request.url);
      if (!url.pathname.startsWith('/api/')) return;
      const frames = event.initiator.stack?.callFrames ?? [];
      reads.push({
        path: url.pathname,
        by: frames.map((f) => new URL(f.url || 'about:blank').pathname).find((p) => p.startsWith('/assets/')) ?? '',
      });
    });
    return reads;
  }
  const early = /^\/assets\/early-[\w-]+\.js$/;

  test('signed in on /: the session check, the figures and the checklist, each once', async ({ page }) => {
    await signInAs(page, 'adam', undefined, '/auth-success');
    const reads = await apiReads(page);
    await page.goto('/');
    await expect(page.getByRole('heading', { name: /, Adam$/ })).toBeVisible();
    await expect(page.getByTestId('kpi-spend')).toBeVisible();
    for (const path of ['/api/auth/user', '/api/dashboard', '/api/onboarding']) {
      const of = reads.filter((r) => r.path === path);
      expect(of, `${path} asked for once`).toHaveLength(1);
      expect(of[0]!.by, `${path} asked for by the early script`).toMatch(early);
    }
  });

  test('signed in elsewhere: the session check only; with forceLogin=true, nothing', async ({ page }) => {
    await signInAs(page, 'adam', undefined, '/auth-success');
    const reads = await apiReads(page);
    await page.goto('/requests');
    await expect(page.getByRole('heading', { name: 'My Requests', exact: true })).toBeVisible();
    const check = reads.filter((r) => r.path === '/api/auth/user');
    expect(check).toHaveLength(1);
    expect(check[0]!.by).toMatch(early);
    expect(reads.filter((r) => early.test(r.by)).map((r) => r.path)).toEqual(['/api/auth/user']);

    reads.length = 0;
    await page.goto('/requests?forceLogin=true');
    await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible();
    expect(reads.filter((r) => r.path === '/api/auth/user')).toEqual([]);
  });
});

test.describe('before any script has run', () => {
  test.use({ javaScriptEnabled: false });

  test('the page already shows the spinner the app shows while it checks the session', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByText('Loading Outlay…')).toBeVisible();
    await expect(page.getByRole('status')).toHaveText(/Loading Outlay/);
  });
});
