import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { apiAs, DESKTOP, expectAccessible, MOBILE, pageAs, SCREENSHOT_DIR, snap, storedTokens } from './fixtures';

/*
 * Budget figures: the budget vs actual chart names its lines (on hover, and on its axis as
 * horizontal bars of the largest budgets), and a new budget line's currency follows the chosen
 * organization until it is changed by hand. The chart's lines are its own, in January 2035; the
 * dialog is closed without saving.
 */

type Options = { organizations: { id: string; name: string; currency: string }[]; currencies: string[] };
type Report = {
  groups: { periodType: string; label: string }[];
  lines: { id: string; label: string; periodType: string; group: { budget: string } }[];
};

/** The page's own session, for calls whose refusal (409 on a re-run) is expected. */
async function authHeaders(page: Page) {
  const t = await storedTokens(page);
  return { Authorization: `Bearer ${t.accessToken}`, 'X-Device-ID': t.deviceId! };
}

async function choose(page: Page, field: RegExp | string, option: string) {
  await page.getByRole('combobox', { name: field }).first().click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test.describe('budget figures', () => {
  test('the chart shows the largest of 35 month lines as labelled horizontal bars, with the line name on hover', async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const carla = await pageAs(browser, 'carla', '/budget-vs-actual');
    const api = await apiAs(carla.context().request, 'carla');
    // 35 month lines of its own, in a month no other spec looks at (a re-run finds them there: 409).
    const options = await api.get<
      Options & { categories: { id: string; organizationId: string | null; name: string }[] }
    >('/api/budgets/options');
    const groupWide = options.categories.filter((c) => c.organizationId === null).slice(0, 7);
    expect(groupWide).toHaveLength(7);
    const headers = await authHeaders(carla);
    for (const [oi, org] of options.organizations.slice(0, 5).entries()) {
      for (const [ci, cat] of groupWide.entries()) {
        const res = await carla.context().request.post('/api/budgets/lines', {
          headers,
          data: {
            organizationId: org.id,
            categoryId: cat.id,
            periodType: 'month',
            periodStart: '2035-01-01',
            currency: org.currency,
            amount: `${(oi + 1) * 1000 + ci * 150}.00`,
          },
        });
        expect([201, 409], await res.text()).toContain(res.status());
      }
    }
    const report = await api.get<Report>('/api/budgets/vs-actual?periodType=month&date=2035-01-15');
    const months = report.lines.filter((l) => l.periodType === 'month');
    expect(months.length).toBeGreaterThanOrEqual(35);
    const largest = [...months].sort((a, b) => Number(b.group.budget) - Number(a.group.budget))[0]!;

    await expect(carla.getByRole('heading', { name: 'Budget vs Actual' })).toBeVisible();
    await choose(carla, 'Period', 'Month');
    await carla.getByLabel('Containing the date').fill('2035-01-15');
    // The headline figures are the month lines' own total.
    await expect(
      carla.getByRole('heading', { name: `Month lines: ${months.length} of ${months.length} added (USD)` }),
    ).toBeVisible();
    const chart = carla.getByTestId('bva-chart');
    await expect(chart).toBeVisible();
    await expect(carla.getByText(`The 10 largest budgets of ${months.length} lines`)).toBeVisible();
    // One axis name per line shown, ten in all.
    await expect(chart.locator('.recharts-yAxis .recharts-cartesian-axis-tick')).toHaveCount(10);
    // Hovering the first (largest) bar names its line in full.
    await chart.locator('.recharts-bar-rectangle').first().hover();
    const tip = chart.locator('.recharts-tooltip-wrapper');
    await expect(tip).toContainText(largest.label);
    await expect(tip).toContainText('Budget');
    await expectAccessible(carla);
    await snap(carla, 'budget-figures-chart');

    // The table totals each granularity present apart.
    for (const g of report.groups)
      await expect(carla.getByRole('cell', { name: new RegExp(`^Total of ${g.label.toLowerCase()}`) })).toBeVisible();

    // The seeded quarter: the chart switches between granularities, and names what it shows.
    await choose(carla, 'Period', 'Quarter');
    await carla.getByLabel('Containing the date').fill(new Date().toISOString().slice(0, 10));
    await expect(carla.getByRole('heading', { name: /^Quarter lines: \d+ of \d+ added/ })).toBeVisible();
    await carla
      .getByRole('group', { name: 'Lines in the chart' })
      .getByRole('button', { name: /^Month lines/ })
      .click();
    await expect(carla.getByRole('heading', { name: /^Month lines: budget, committed and actual/ })).toBeVisible();
    await snap(carla, 'budget-figures-quarter');
    await choose(carla, 'Period', 'Month');
    await carla.getByLabel('Containing the date').fill('2035-01-15');
    await expect(carla.getByRole('heading', { name: /^Month lines: \d+ of \d+ added/ })).toBeVisible();

    await carla.setViewportSize(MOBILE);
    // The pointer leaves the chart: no tooltip from the desktop layout stays open.
    await carla.mouse.move(1, 1);
    await expect(tip).toBeHidden();
    await expect(chart).toBeVisible();
    const box = await chart.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(MOBILE.width);
    const pageWidth = () => carla.evaluate(() => document.documentElement.scrollWidth);
    expect(await pageWidth()).toBeLessThanOrEqual(MOBILE.width);
    // Pointing at a bar shows its name, inside the screen.
    await chart.locator('.recharts-bar-rectangle').nth(1).hover();
    await expect(tip).toBeVisible();
    await expect(tip).toContainText(' · Jan 2035');
    await snap(carla, 'budget-figures-chart');
    // The chart alone at phone size, to read its names.
    await chart.screenshot({ path: join(SCREENSHOT_DIR, 'budget-figures-chart-only-mobile.png') });
    expect(await pageWidth()).toBeLessThanOrEqual(MOBILE.width);
  });

  test('a new budget line takes the chosen organization’s currency unless the currency was chosen by hand', async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const carla = await pageAs(browser, 'carla', '/budget-management');
    const options = await (await apiAs(carla.context().request, 'carla')).get<Options>('/api/budgets/options');
    const gbp = options.organizations.find((o) => o.currency === 'GBP')!;
    const eur = options.organizations.find((o) => o.currency === 'EUR')!;
    const usd = options.organizations.find((o) => o.currency === 'USD')!;
    expect(gbp && eur && usd).toBeTruthy();

    await expect(carla.getByRole('heading', { name: 'Budget Management' })).toBeVisible();
    await carla.getByRole('button', { name: 'New line' }).click();
    const dialog = carla.getByRole('dialog', { name: 'New budget line' });
    await expect(dialog).toBeVisible();
    const currency = dialog.getByRole('combobox', { name: /^Currency/ });

    // Not touched: the currency follows each organization chosen.
    await choose(carla, /^Organization/, eur.name);
    await expect(currency).toHaveText('EUR');
    await choose(carla, /^Organization/, gbp.name);
    await expect(currency).toHaveText('GBP');
    await snap(carla, 'budget-figures-new-line');

    // Chosen by hand: it stays when the organization changes.
    await choose(carla, /^Currency/, 'AED');
    await choose(carla, /^Organization/, usd.name);
    await expect(dialog.getByRole('combobox', { name: /^Organization/ })).toHaveText(usd.name);
    await expect(currency).toHaveText('AED');

    // Reopened, the dialog starts over and follows the organization again.
    await carla.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await carla.setViewportSize(MOBILE);
    await carla.getByRole('button', { name: 'New line' }).click();
    await expect(dialog).toBeVisible();
    await choose(carla, /^Organization/, gbp.name);
    await expect(currency).toHaveText('GBP');
    await snap(carla, 'budget-figures-new-line');
    await carla.setViewportSize(DESKTOP);
  });
});

test.describe('one figure per budget line', () => {
  test('a staff-cost line shows its payroll, and the same share used, in Budget Management and Budget vs Actual', async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const carla = await pageAs(browser, 'carla', '/budget-management');
    const api = await apiAs(carla.context().request, 'carla');
    type Line = {
      id: string;
      label: string;
      percentUsed: string;
      payroll: string;
      currency: string;
      countsPayroll: boolean;
    };
    const today = new Date().toISOString().slice(0, 10);
    const lines = (await api.get<{ items: Line[] }>(`/api/budgets/lines?date=${today}&pageSize=100`)).items;
    const staff = lines.find((l) => l.countsPayroll && l.label.startsWith('Meridian Logistics · Payroll'))!;
    expect(staff).toBeDefined();
    const payroll = new Intl.NumberFormat('en-US', { style: 'currency', currency: staff.currency }).format(
      Number(staff.payroll),
    );

    await expect(carla.getByRole('heading', { name: 'Budget Management' })).toBeVisible();
    await carla.getByPlaceholder('Search organization, department, category…').fill('Payroll');
    const row = carla
      .getByRole('row')
      .filter({ has: carla.getByRole('progressbar', { name: `${staff.label}: ${staff.percentUsed}% used` }) });
    await expect(row).toBeVisible();
    await expect(row).toContainText(payroll);
    await expect(carla.getByRole('columnheader', { name: 'Of which payroll' })).toBeVisible();
    await snap(carla, 'budget-truth-management');

    await carla.goto('/budget-vs-actual');
    await expect(carla.getByRole('heading', { name: 'Budget vs Actual' })).toBeVisible();
    await expect(carla.getByRole('columnheader', { name: 'Of which payroll' })).toBeVisible();
    const vsRow = carla.getByRole('row').filter({ has: carla.getByRole('button', { name: staff.label, exact: true }) });
    await expect(vsRow).toContainText(`${staff.percentUsed}%`);
    await expect(vsRow).toContainText(payroll);
    await expectAccessible(carla);
    await snap(carla, 'budget-truth-vs-actual');
    await carla.setViewportSize(MOBILE);
    await expect(carla.getByText(`Of which payroll: ${payroll}`).first()).toBeVisible();
    await snap(carla, 'budget-truth-vs-actual');
    await carla.setViewportSize(DESKTOP);

    // The switch is offered where payroll may count: the Payroll category (on by default) or none.
    await carla.goto('/budget-management');
    await carla.getByRole('button', { name: 'New line' }).click();
    const dialog = carla.getByRole('dialog', { name: 'New budget line' });
    const counts = dialog.getByRole('checkbox', { name: 'Counts payroll' });
    await expect(counts).toBeEnabled();
    await expect(counts).not.toBeChecked();
    await choose(carla, /^Category/, 'Travel');
    await expect(counts).toBeDisabled();
    await expect(
      dialog.getByText('Only a line of the Payroll category or of no category can count payroll.'),
    ).toBeVisible();
    await choose(carla, /^Category/, 'Payroll');
    await expect(counts).toBeEnabled();
    await expect(counts).toBeChecked();
    await snap(carla, 'budget-truth-new-line');
    await carla.keyboard.press('Escape');
  });
});
