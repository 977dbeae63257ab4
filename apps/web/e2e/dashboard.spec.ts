import { expect, test } from '@playwright/test';
import { apiAs, DESKTOP, expectAccessible, expectNoSidewaysScroll, MOBILE, pageAs, snap } from './fixtures';

/*
 * The role-aware dashboard (/ and /real-time-monitoring) and /expense-tracking
 * (docs/product.md §3.2 "Dashboards"). carla (cfo) keeps the dashboard open while, in another browser
 * context, rita raises a request and max approves its first step through the API: carla's
 * live activity feed shows it without a reload (server-sent events). rita sees her requests,
 * not the KPIs. Titles carry a random tag: other specs fill the same data.
 */

const suffix = () => Math.random().toString(36).slice(2, 8);

test("carla's activity feed shows max's approval live, without a reload", async ({ browser }) => {
  test.setTimeout(90_000);
  const carla = await pageAs(browser, 'carla', '/');
  await expect(carla.getByRole('heading', { name: /, Carla$/ })).toBeVisible();
  const feed = carla.getByTestId('activity-card');
  await expect(feed.getByTestId('live-indicator')).toHaveText(/Live/, { timeout: 15_000 });
  // A marker in the page: a reload would drop it.
  await carla.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));

  const other = await browser.newContext();
  const rita = await apiAs(other.request, 'rita');
  const max = await apiAs(other.request, 'max');
  const title = `Dashboard live ${suffix()}`;
  const options = await rita.get<{ categories: { id: string; name: string }[]; organization: { currency: string } }>(
    '/api/requests/options',
  );
  const category = options.categories.find((c) => c.name.startsWith('Office Supplies')) ?? options.categories[0]!;
  const draft = await rita.post<{ id: string; reference: string }>('/api/requests', {
    title,
    amount: '240.00',
    currency: options.organization.currency,
    categoryId: category.id,
  });
  await rita.post(`/api/requests/${draft.id}/submit`, {}, { 'idempotency-key': crypto.randomUUID() });
  await expect(feed.getByTestId('activity-item').filter({ hasText: title }).first()).toBeVisible({ timeout: 15_000 });

  await max.post(`/api/approvals/${draft.id}/decide`, { decision: 'approved' });
  const approved = feed.getByTestId('activity-item').filter({ hasText: `approved a step of ${draft.reference}` });
  await expect(approved).toBeVisible({ timeout: 15_000 });
  await expect(approved).toContainText(/Max/);
  expect(await carla.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
  await expect(carla.getByTestId('activity-announcer')).toContainText(title);
  await other.close();
  await carla.context().close();
});

test("carla's dashboard shows the group KPIs with real numbers, a chart and alerts", async ({ browser }) => {
  const carla = await pageAs(browser, 'carla', '/real-time-monitoring');
  const api = await apiAs(carla.request, 'carla');
  const data = await api.get<{
    kpis: { pendingCount: number; scopeLabel: string; cycleSample: number };
    spendByMonth: unknown[];
  }>('/api/dashboard');
  await expect(carla.getByRole('heading', { name: /, Carla$/ })).toBeVisible();
  await expect(carla.getByRole('main').getByTestId('role-badge')).toHaveText('CFO');
  await expect(carla.getByTestId('kpi-spend')).toBeVisible();
  // The change compares this month so far with the same days of last month.
  await expect(carla.getByTestId('kpi-spend')).toContainText(
    /(on the same days last month|same days last month to compare)/,
  );
  await expect(carla.getByTestId('kpi-spend')).toContainText(/Days? 1(–\d+)? of last month/);
  // pendingCount can move while other specs run; the label is stable.
  await expect(carla.getByTestId('kpi-pending')).toContainText(/requests? awaiting a decision/);
  expect(data.kpis.pendingCount).toBeGreaterThan(0);
  await expect(carla.getByText(`Figures for ${data.kpis.scopeLabel}`)).toBeVisible();
  await expect(carla.getByRole('img', { name: /Spend by month: 12 months/ })).toBeVisible();
  await expect(carla.getByRole('table', { name: 'Spend by month' })).toHaveCount(1);
  await expect(carla.getByTestId('alerts-card')).toBeVisible();
  await expectAccessible(carla);
  await snap(carla, 'dashboard-carla');
  await carla.setViewportSize(MOBILE);
  await expect(carla.getByTestId('kpi-spend')).toBeVisible();
  // Stacked: the KPI cards share the column on a phone.
  const [a, b] = await Promise.all([
    carla.getByTestId('kpi-spend').boundingBox(),
    carla.getByTestId('kpi-pending').boundingBox(),
  ]);
  expect(Math.round(a!.x)).toBe(Math.round(b!.x));
  expect(b!.y).toBeGreaterThan(a!.y);
  await snap(carla, 'dashboard-carla');
  await carla.context().close();
});

test('rita sees her requests and decisions, not the KPIs', async ({ browser }) => {
  const rita = await pageAs(browser, 'rita', '/');
  await expect(rita.getByRole('heading', { name: /, Rita$/ })).toBeVisible();
  const mine = rita.getByTestId('mine-card');
  await expect(mine).toBeVisible();
  const api = await apiAs(rita.request, 'rita');
  const data = await api.get<{ mine: { total: number } }>('/api/dashboard');
  await expect(mine).toContainText(new RegExp(`${data.mine.total} requests? raised by you`));
  await expect(rita.getByTestId('kpi-spend')).toHaveCount(0);
  await expect(rita.getByTestId('queue-card')).toHaveCount(0);
  await expect(mine.getByRole('link', { name: 'Open my requests' })).toHaveAttribute('href', '/requests');
  await expectAccessible(rita);
  await snap(rita, 'dashboard-rita');
  await rita.setViewportSize(MOBILE);
  await snap(rita, 'dashboard-rita');
  await rita.context().close();
});

test('felix, who has no Admin menu, finds the screens his role opens on the dashboard, and filters requests by vendor', async ({
  browser,
}) => {
  const felix = await pageAs(browser, 'felix', '/');
  await expect(felix.getByRole('heading', { name: /, Felix$/ })).toBeVisible();
  const screens = felix.getByRole('navigation', { name: 'Your screens' });
  await expect(screens.getByRole('link', { name: 'Payroll Management' })).toBeVisible();
  await expect(screens.getByRole('link', { name: 'Budget vs Actual' })).toBeVisible();
  // Only what his permissions open: no organization or user administration.
  await expect(screens.getByRole('link', { name: 'Organization Management' })).toHaveCount(0);
  await expect(screens.getByRole('link', { name: 'User Management' })).toHaveCount(0);
  await expectAccessible(felix);
  await snap(felix, 'dashboard-felix');
  await felix.setViewportSize(MOBILE);
  await snap(felix, 'dashboard-felix');
  await felix.setViewportSize(DESKTOP);
  await screens.getByRole('link', { name: 'Budget vs Actual' }).click();
  await expect(felix.getByRole('heading', { name: 'Budget vs Actual' })).toBeVisible();

  // The requests list's vendor filter asks the requests module, which he may read.
  const refused: string[] = [];
  felix.on('response', (r) => {
    if (r.status() === 403) refused.push(r.url());
  });
  await felix.goto('/requests-management');
  await felix.getByRole('combobox', { name: 'Vendor' }).click();
  await expect(felix.getByRole('option').nth(1)).toBeVisible();
  await felix.keyboard.press('Escape');
  expect(refused).toEqual([]);
  await felix.context().close();
});

test('expense tracking: scopes on offer, month range, chart and table', async ({ browser }) => {
  const carla = await pageAs(browser, 'carla', '/expense-tracking');
  await expect(carla.getByRole('heading', { name: 'Expense Tracking', level: 1 })).toBeVisible();
  await expect(carla.getByTestId('expense-table').locator('tbody tr')).toHaveCount(12);
  await carla.getByRole('combobox', { name: 'Whose spend' }).click();
  await expect(carla.getByRole('option', { name: 'My organization' })).toBeVisible();
  await expect(carla.getByRole('option', { name: 'The group' })).toBeVisible();
  await carla.getByRole('option', { name: 'The group' }).click();
  const api = await apiAs(carla.request, 'carla');
  const month = new Date().toISOString().slice(0, 7);
  const group = await api.get<{ totals: { count: number } }>(
    `/api/expense-tracking?scope=group&from=${month}&to=${month}`,
  );
  const [y, m] = month.split('-').map(Number) as [number, number];
  const earlier = `${m <= 3 ? y - 1 : y}-${String(((m - 4 + 12) % 12) + 1).padStart(2, '0')}`;
  await carla.getByLabel('From month').fill(earlier);
  await expect(carla.getByTestId('expense-table').locator('tbody tr')).toHaveCount(4);
  await expect(carla.getByRole('img', { name: /Approved vs paid per month: 4 months/ })).toBeVisible();
  expect(group.totals.count).toBeGreaterThanOrEqual(0);
  await expectAccessible(carla);
  await snap(carla, 'expense-tracking-carla');
  // A phone: a card per month instead of the table, and nothing scrolls sideways.
  await carla.setViewportSize(MOBILE);
  await expect(carla.getByTestId('expense-table')).toBeHidden();
  const cards = carla.getByRole('list', { name: 'Spend by month' }).getByTestId('expense-card');
  await expect(cards).toHaveCount(4);
  await expect(cards.first()).toContainText(/\d+ requests?/);
  await expectNoSidewaysScroll(carla);
  await expectAccessible(carla);
  await snap(carla, 'expense-tracking-carla');
  await carla.context().close();

  const rita = await pageAs(browser, 'rita', '/expense-tracking');
  await expect(rita.getByTestId('figure-total')).toContainText('Your requests');
  await rita.getByRole('combobox', { name: 'Whose spend' }).click();
  await expect(rita.getByRole('option')).toHaveText(['My spend']);
  await rita.context().close();
});
