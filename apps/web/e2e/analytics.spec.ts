import { expect, test, type Page } from '@playwright/test';
import { apiAs, expectAccessible, MOBILE, pageAs, snap } from './fixtures';

/*
 * Analytics on the seeded history (read only): carla's figures are the API's, top lists and
 * cycle-time tables filled; the organization filter narrows them; felix sees his subsidiary;
 * rita is refused. Screenshots at desktop and phone size.
 */

type Analytics = {
  currency: string;
  scopeLabel: string;
  spend: { total: string };
  trend: { month: string; throughDay: number | null }[];
  approval: { overall: { rate: string | null } };
  topCategories: { name: string }[];
  cycleTime: { bySteps: { step: string }[]; byOrganization: { organizationName: string }[] };
};

const money = (amount: string, currency: string) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(amount as unknown as number);
const percent = (value: string) =>
  new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 1 }).format(
    (Number(value) / 100) as number,
  );

async function noSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, 'page wider than the screen').toBeLessThanOrEqual(0);
}

test.describe('analytics', () => {
  test('carla reads the group’s spend, approval rate and cycle times, then one organization’s', async ({ browser }) => {
    test.setTimeout(120_000);
    const page = await pageAs(browser, 'carla', '/analytics');
    const api = await apiAs(page.context().request, 'carla');
    const a = await api.get<Analytics>('/api/analytics');
    await expect(page.getByRole('heading', { name: 'Analytics', level: 1 })).toBeVisible();
    await expect(page.getByTestId('analytics-scope')).toContainText('All organizations');
    await expect(page.getByTestId('kpi-spend-value')).toHaveText(money(a.spend.total, a.currency));
    await expect(page.getByTestId('kpi-approval-value')).toHaveText(percent(a.approval.overall.rate!));
    await expect(
      page.getByRole('table', { name: /Top categories/ }).getByRole('rowheader', { name: a.topCategories[0]!.name }),
    ).toBeVisible();
    const steps = page.getByRole('table', { name: /Cycle time per approval step/ });
    for (const s of a.cycleTime.bySteps)
      await expect(steps.getByRole('rowheader', { name: s.step, exact: true })).toBeVisible();
    expect(a.cycleTime.byOrganization.length).toBeGreaterThan(1);
    await expect(page.locator('.recharts-line-curve').first()).toBeVisible();
    // The running month is named as such, never drawn as a whole month's fall.
    const running = a.trend.find((p) => p.throughDay !== null);
    if (running)
      await expect(page.getByTestId('trend-partial')).toContainText(
        `covers days 1–${running.throughDay} (dashed), not the whole month`,
      );
    await snap(page, 'analytics-carla');
    await expectAccessible(page);

    await page.getByRole('combobox', { name: 'Organization' }).click();
    await page.getByRole('option', { name: 'Meridian Foods', exact: true }).click();
    await expect(page.getByTestId('analytics-scope')).toContainText('Meridian Foods');
    const orgRows = page.getByRole('table', { name: /Cycle time per organization/ }).getByRole('rowheader');
    await expect(orgRows).toHaveText(['Meridian Foods']);
  });

  test('on a phone nothing is wider than the screen', async ({ browser }) => {
    const page = await pageAs(browser, 'carla', '/analytics', MOBILE);
    await expect(page.getByTestId('kpi-spend-value')).toBeVisible();
    await expect(page.getByRole('table', { name: /Cycle time per organization/ })).toBeVisible();
    await noSidewaysScroll(page);
    await snap(page, 'analytics-carla');
    await expectAccessible(page);
  });

  test('felix sees his subsidiary only; rita is refused', async ({ browser }) => {
    const page = await pageAs(browser, 'felix', '/analytics');
    const a = await (await apiAs(page.context().request, 'felix')).get<Analytics>('/api/analytics');
    expect(a.scopeLabel).toBe('Meridian Logistics');
    await expect(page.getByTestId('analytics-scope')).toContainText('Meridian Logistics');
    await expect(page.getByTestId('kpi-spend-value')).toHaveText(money(a.spend.total, a.currency));
    await expect(page.getByRole('table', { name: /Cycle time per organization/ }).getByRole('rowheader')).toHaveText([
      'Meridian Logistics',
    ]);
    await snap(page, 'analytics-felix');

    const rita = await pageAs(browser, 'rita', '/analytics');
    await expect(rita.getByTestId('access-restricted')).toBeVisible();
  });
});
