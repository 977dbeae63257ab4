import { expect, test, type Page } from '@playwright/test';
import { apiAs, DESKTOP, expectAccessible, expectToast, MOBILE, pageAs, snap, type Api } from './fixtures';

/*
 * Notifications (docs/product.md §3.11 "Communication"): max reads and marks HIS OWN notifications (the
 * demo seed gives him unread ones; other specs add more while this one runs, so every count is
 * checked against what arrived meanwhile), changes his notification settings (e-mail off for
 * "Request paid", weekly digest; restored at the end; no other spec reads them), and sees a
 * request rita raises and submits through the API arrive in his list and bump the bell without
 * a reload (server-sent events).
 */

const suffix = () => Math.random().toString(36).slice(2, 8);

const bell = (page: Page) => page.getByTestId('notification-bell');

/** The count the bell announces ("Notifications, N unread"). */
async function bellCount(page: Page): Promise<number> {
  const label = await bell(page).getAttribute('aria-label');
  const n = label?.match(/^Notifications, (\d+) unread$/)?.[1];
  expect(n, `bell label "${label}"`).toBeDefined();
  return Number(n);
}

type Item = { id: string; title: string; body: string | null; read: boolean; createdAt: string };

/** Max's unread notifications on the server, by id (one page holds them all). */
async function unreadIds(api: Api): Promise<Set<string>> {
  const { count } = await api.get<{ count: number }>('/api/notifications/unread-count');
  expect(count, 'one page of 100 holds every unread notification').toBeLessThanOrEqual(100);
  const page = await api.get<{ items: Item[] }>('/api/notifications?unread=true&pageSize=100');
  return new Set(page.items.map((n) => n.id));
}

/**
 * Other specs may notify max at any moment, so counts are compared by id: the bell agrees with
 * the server, and of the notifications unread at some earlier point (`earlier`), how many are
 * still unread. Arrivals since then count on both sides of the first and not at all in the second.
 */
async function unreadState(page: Page, api: Api, earlier: Set<string>) {
  const shown = await bellCount(page);
  const now = await unreadIds(api);
  return {
    bellMatchesServer: shown === now.size,
    earlierStillUnread: [...earlier].filter((id) => now.has(id)).length,
    now,
  };
}

test('max sees his unread count, marks one read, then all read', async ({ browser }) => {
  const max = await pageAs(browser, 'max', '/');
  const api = await apiAs(max.request, 'max');
  await expect(bell(max)).toHaveAttribute('aria-label', /^Notifications, [1-9]\d* unread$/);
  await bell(max).click();
  await expect(max).toHaveURL(/\/notifications$/);
  await expect(max.getByRole('heading', { name: 'Notifications', level: 1 })).toBeVisible();
  const list = max.getByRole('region', { name: 'Notification list' });
  const unread = list.locator('[data-testid="notification-row"][data-read="false"]');
  await expect(unread.first()).toBeVisible();

  // Mark the first unread one read: its row turns read, the bell goes down by one.
  const first = unread.first();
  const id = await first.getAttribute('data-id');
  expect(id).toBeTruthy();
  const before = await unreadIds(api);
  expect(before.has(id!)).toBe(true);
  const row = list.locator(`[data-testid="notification-row"][data-id="${id}"]`);
  await row.getByRole('button', { name: /^Mark read: / }).click();
  await expect(row).toHaveAttribute('data-read', 'true');
  // Exactly that one went read, and the bell went down with the server.
  await expect
    .poll(async () => {
      const { bellMatchesServer, earlierStillUnread, now } = await unreadState(max, api, before);
      return { bellMatchesServer, earlierStillUnread, markedStillUnread: now.has(id!) };
    })
    .toEqual({ bellMatchesServer: true, earlierStillUnread: before.size - 1, markedStillUnread: false });
  const all = await api.get<{ items: Item[] }>('/api/notifications?pageSize=100');
  expect(all.items.find((n) => n.id === id)?.read).toBe(true);

  await expectAccessible(max);
  await snap(max, 'notifications-max');
  await max.setViewportSize(MOBILE);
  await expect(bell(max)).toBeVisible();
  expect(await max.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
  await expectAccessible(max);
  await snap(max, 'notifications-max');
  await max.setViewportSize(DESKTOP);

  // Mark all read: toast, no unread row, the bell says 0 and shows no badge (unless another spec
  // notified max in the meantime: what arrived after the click may stay unread, nothing older).
  const beforeAll = await unreadIds(api);
  await max.getByRole('button', { name: 'Mark all read' }).click();
  await expectToast(max, 'marked read');
  await expect
    .poll(async () => {
      const { bellMatchesServer, earlierStillUnread } = await unreadState(max, api, beforeAll);
      return { bellMatchesServer, earlierStillUnread };
    })
    .toEqual({ bellMatchesServer: true, earlierStillUnread: 0 });
  if ((await unreadIds(api)).size === 0) {
    await expect(unread).toHaveCount(0);
    await expect(bell(max)).toHaveAttribute('aria-label', 'Notifications, 0 unread');
    await expect(bell(max).getByTestId('notification-badge')).toHaveCount(0);
    await max.getByRole('button', { name: 'Unread', exact: true }).click();
    await expect(list).toContainText('No unread notifications');
  }
  await max.context().close();
});

test('max changes his notification settings and they stay after a reload', async ({ browser }) => {
  const max = await pageAs(browser, 'max', '/notification-settings');
  const api = await apiAs(max.request, 'max');
  await expect(max.getByRole('heading', { name: 'Notification Settings', level: 1 })).toBeVisible();
  // Every event the product names has its row, payroll, registrations and new devices included.
  for (const event of [
    'Payroll to approve',
    'Registration received',
    'New sign-in from a new device',
    'Budget threshold crossed',
    'New comment',
  ]) {
    await expect(max.getByRole('checkbox', { name: `${event}: in-app` })).toBeVisible();
    await expect(max.getByRole('checkbox', { name: `${event}: e-mail` })).toBeVisible();
  }
  const email = max.getByRole('checkbox', { name: 'Request paid: e-mail' });
  const inApp = max.getByRole('checkbox', { name: 'Request paid: in-app' });
  const digest = max.getByRole('combobox', { name: 'E-mail digest' });
  await expect(email).toBeChecked();
  await expect(inApp).toBeChecked();
  await expect(digest).toHaveText('Off');
  const save = max.getByRole('button', { name: 'Save', exact: true });
  const unsaved = max.getByTestId('unsaved-bar');
  await expect(save).toBeDisabled();
  await expect(unsaved).toHaveCount(0);

  await expectAccessible(max);
  await snap(max, 'notification-settings-max');

  // On a phone: change a row and the digest at the bottom, save from the bar that appears there.
  await max.setViewportSize(MOBILE);
  await expect(email).toBeVisible();
  expect(await max.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
  await expectAccessible(max);
  await snap(max, 'notification-settings-max');
  await email.uncheck();
  await digest.click();
  await max.getByRole('option', { name: 'Weekly' }).click();
  await expect(digest).toHaveText('Weekly');
  await expect(save).toBeEnabled();
  await expect(unsaved).toBeVisible();
  await expect(unsaved).toBeInViewport();
  await expectAccessible(max);
  await snap(max, 'notification-settings-max-unsaved');
  await unsaved.getByRole('button', { name: 'Save changes' }).click();
  await expectToast(max, 'Notification settings saved');
  await expect(unsaved).toHaveCount(0);
  await expect(save).toBeDisabled();

  await max.setViewportSize(DESKTOP);
  await max.reload();
  await expect(max.getByRole('heading', { name: 'Notification Settings', level: 1 })).toBeVisible();
  await expect(email).not.toBeChecked();
  await expect(inApp).toBeChecked();
  await expect(digest).toHaveText('Weekly');
  const stored = await api.get<{
    digest: string;
    preferences: { eventType: string; inApp: boolean; email: boolean }[];
  }>('/api/notification-preferences');
  expect(stored.digest).toBe('weekly');
  expect(stored.preferences.find((p) => p.eventType === 'request_paid')).toMatchObject({ inApp: true, email: false });

  // Leave max as the seed had him.
  await api.put('/api/notification-preferences', {
    preferences: [{ eventType: 'request_paid', inApp: true, email: true }],
    digest: 'off',
  });
  await max.context().close();
});

test('a request rita submits shows up in max’s list and bell without a reload', async ({ browser }) => {
  const max = await pageAs(browser, 'max', '/notifications');
  const api = await apiAs(max.request, 'max');
  await expect(max.getByRole('heading', { name: 'Notifications', level: 1 })).toBeVisible();
  await expect(max.getByTestId('live-indicator')).toHaveText(/Live/, { timeout: 15_000 });
  const before = await unreadIds(api);
  // A marker in the page: a reload would drop it.
  await max.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));

  const other = await browser.newContext();
  const rita = await apiAs(other.request, 'rita');
  const title = `Notification live ${suffix()}`;
  const options = await rita.get<{ categories: { id: string; name: string }[]; organization: { currency: string } }>(
    '/api/requests/options',
  );
  const category = options.categories.find((c) => c.name.startsWith('Office Supplies')) ?? options.categories[0]!;
  // Above the 100 auto-approval limit for office supplies, far below any budget line.
  const draft = await rita.post<{ id: string; reference: string }>('/api/requests', {
    title,
    amount: '187.40',
    currency: options.organization.currency,
    categoryId: category.id,
    justification: 'Label printer ribbons for the depot.',
  });
  await rita.post(`/api/requests/${draft.id}/submit`, {}, { 'idempotency-key': crypto.randomUUID() });

  const row = max.getByTestId('notification-row').filter({ hasText: title });
  await expect(row).toBeVisible({ timeout: 15_000 });
  await expect(row).toHaveAttribute('data-read', 'false');
  await expect(row).toContainText(draft.reference);
  // The bell went up with the server, live, and nothing unread before went read.
  const arrived = await row.getAttribute('data-id');
  await expect
    .poll(
      async () => {
        const { bellMatchesServer, earlierStillUnread, now } = await unreadState(max, api, before);
        return { bellMatchesServer, earlierStillUnread, arrivedUnread: now.has(arrived!) };
      },
      { timeout: 15_000 },
    )
    .toEqual({ bellMatchesServer: true, earlierStillUnread: before.size, arrivedUnread: true });
  expect(await bellCount(max)).toBeGreaterThan(before.size);
  expect(await max.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);

  // Opening it marks it read and goes to the approval queue.
  await row.getByRole('button', { name: `Unread: ${draft.reference} needs your approval`, exact: false }).click();
  await expect(max).toHaveURL(/\/approvals/);
  await other.close();
  await max.context().close();
});
