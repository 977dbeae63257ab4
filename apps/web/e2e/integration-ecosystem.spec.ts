import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { apiAs, expectAccessible, MOBILE, signInAs, snap } from './fixtures';

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

  test('a webhook: its secret once, a signed delivery in a local receiver, the log and redelivery', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const received: { headers: IncomingHttpHeaders; body: string }[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const tag = Math.random().toString(36).slice(2, 8);
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/${tag}`;
      await signInAs(page, 'adam', undefined, '/integration-ecosystem');
      const allow = page.getByLabel(/Allow webhooks to loopback and private network addresses/);
      await expect(allow).toBeVisible();
      // A click, then the state as it settles: the choice is saved on the server before it stays.
      if (!(await allow.isChecked())) await allow.click();
      await expect(allow).toBeChecked();

      await page.getByRole('button', { name: 'New webhook' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Address (URL)').fill(url);
      await dialog.getByLabel('Request submitted', { exact: true }).check();
      await dialog.getByRole('button', { name: 'Add webhook' }).click();
      await expect(dialog).toBeHidden();
      const secret = (await page.getByTestId('webhook-secret').textContent())!.trim();
      expect(secret).toMatch(/^whsec_/);
      const item = page.getByTestId('webhook-item').filter({ hasText: url });
      await expect(item).toContainText('On');

      const rita = await apiAs(request, 'rita');
      const options = (await rita.get('/api/requests/options')) as { categories: { id: string }[] };
      const draft = (await rita.post('/api/requests', {
        title: `Webhook check ${tag}`,
        amount: '42.00',
        currency: 'USD',
        categoryId: options.categories[0]!.id,
      })) as { id: string };
      await rita.post(`/api/requests/${draft.id}/submit`, {}, { 'idempotency-key': crypto.randomUUID() });

      // The job runner sends it on its next pass. Other specs submit requests on the same server
      // meanwhile: every delivery must verify, and this request's is among them.
      type Event = { type: string; data: { requestId: string } };
      const verified = () =>
        received.map((r) => new Webhook(secret).verify(r.body, r.headers as Record<string, string>) as Event);
      const mine = () => verified().filter((e) => e.data.requestId === draft.id);
      await expect.poll(() => mine().length, { timeout: 45_000 }).toBeGreaterThan(0);
      expect(mine()[0]).toMatchObject({ type: 'request.submitted', data: { requestId: draft.id } });

      await item.getByRole('button', { name: 'Deliveries' }).click();
      const delivery = item.getByTestId('webhook-delivery').first();
      await expect(delivery).toContainText('Delivered');
      await expect(delivery).toContainText('HTTP 204');
      await expectAccessible(page);
      await snap(page, 'integration-ecosystem-webhooks');
      const logged = await item.getByTestId('webhook-delivery').count();
      const sent = received.length;
      await delivery.getByRole('button', { name: 'Redeliver' }).click();
      await expect.poll(() => item.getByTestId('webhook-delivery').count()).toBeGreaterThan(logged);
      await expect.poll(() => received.length, { timeout: 45_000 }).toBeGreaterThan(sent);

      await item.getByRole('button', { name: 'Switch off' }).click();
      await expect(item).toContainText('Off');
      await item.getByRole('button', { name: `Delete webhook ${url}` }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Delete webhook' }).click();
      await expect(item).toHaveCount(0);
    } finally {
      server.close();
    }
  });

  test('phone layout', async ({ page }) => {
    await page.setViewportSize(MOBILE);
    await signInAs(page, 'adam', undefined, '/integration-ecosystem');
    await expect(page.getByRole('heading', { level: 1, name: 'API Integrations' })).toBeVisible();
    await expect(page.getByTestId('api-key-item').first().or(page.getByTestId('api-keys-empty'))).toBeVisible();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await snap(page, 'integration-ecosystem');
  });
});
