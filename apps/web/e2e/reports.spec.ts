import { expect, test, type Page } from '@playwright/test';
import { apiAs, DESKTOP, expectAccessible, expectToast, MOBILE, signInAs, snap } from './fixtures';

/*
 * Advanced Reporting: carla builds spend by category × month, sees the chart, saves it shared
 * with felix and scheduled weekly as a PDF; felix sees only his subsidiary's rows (and the report
 * carla shared with him); rita is refused. Report names carry a random suffix: specs run in
 * parallel against one database.
 */

const suffix = () => Math.random().toString(36).slice(2, 8);

/** Nothing of the screen's content is wider than the phone; a failure names what sticks out. */
async function noSidewaysScroll(page: Page) {
  const wide = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    return [...document.querySelectorAll('main *')]
      .filter((el) => el.getBoundingClientRect().right > width + 1 && !el.closest('.sr-only'))
      .slice(0, 5)
      .map(
        (el) =>
          `${el.tagName.toLowerCase()}.${String(el.className).slice(0, 60)} "${(el.textContent ?? '').slice(0, 40)}"`,
      );
  });
  expect(wide).toEqual([]);
}

test.describe('advanced reporting', () => {
  test('carla builds spend by category and month, sees the chart, saves, shares and schedules it', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const name = `Category by month ${suffix()}`;
    await signInAs(page, 'carla', undefined, '/advanced-reporting');
    await expect(page.getByRole('heading', { name: 'Advanced Reporting', level: 1 })).toBeVisible();
    // The first run (spend by category) is there before anything is chosen.
    await expect(page.getByTestId('report-chart')).toBeVisible();

    // A chosen period is what runs: the rolling period is off until ticked, and says which months it would run.
    const rolling = page.getByRole('checkbox', { name: 'Rolling period' });
    await expect(rolling).not.toBeChecked();
    await expect(page.getByTestId('report-rolling-hint')).toContainText('Runs the months chosen:');
    await rolling.check();
    await expect(page.getByTestId('report-rolling-hint')).toContainText('today it runs');
    await rolling.uncheck();

    await page.getByLabel('Month', { exact: true }).check();
    await expect(page.locator('label[for="dim-month"] + span')).toHaveText('2');
    await page.getByRole('button', { name: 'Run report' }).click();
    const chart = page.getByTestId('report-chart');
    await expect(chart).toHaveAttribute('aria-label', /Total spend \(USD\) by category and month/);
    await expect(chart.locator('.recharts-bar-rectangle').first()).toBeVisible();
    const table = page.getByRole('table', { name: 'Report rows and totals' });
    await expect(table.getByRole('columnheader', { name: 'Category' })).toBeVisible();
    await expect(table.getByRole('columnheader', { name: 'Month' })).toBeVisible();
    await expect(table.locator('tbody tr').first()).toBeVisible();
    await expect(table.locator('tfoot')).toContainText(/Total\s*\$[\d,]+\.\d{2}/);

    // The same figures as the API gives for the definition on screen.
    const carla = await apiAs(request, 'carla');
    const now = new Date();
    const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 11, 1)).toISOString().slice(0, 7);
    const run = await carla.post<{ totals: { sum: string } }>('/api/reports/run', {
      definition: {
        dimensions: ['category', 'month'],
        measures: ['sum', 'count'],
        filters: { from, to: now.toISOString().slice(0, 7) },
        view: 'bar',
      },
    });
    const shown = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(Number(run.totals.sum));
    await expect(table.locator('tfoot')).toContainText(shown);

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Save report' });
    await dialog.getByLabel(/^Name/).fill(name);
    await dialog.getByRole('combobox', { name: /Share with people/ }).fill('Felix');
    await page.getByRole('option', { name: /Felix/ }).first().click();
    await expect(dialog.getByRole('list', { name: 'Shared with' })).toContainText('Felix');
    await dialog.getByRole('combobox', { name: /E-mail schedule/ }).click();
    await page.getByRole('option', { name: 'Weekly (Mondays)' }).click();
    await dialog.getByRole('combobox', { name: /Attachment format/ }).click();
    await page.getByRole('option', { name: 'PDF' }).click();
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await expectToast(page, 'Report saved', `${name} · e-mailed Weekly (Mondays) · PDF`);

    const list = page.getByRole('list', { name: 'Saved reports' });
    const item = list.getByRole('listitem').filter({ hasText: name });
    await expect(item).toContainText('Weekly (Mondays) · PDF');
    await expect(item).toContainText('Shared with 1 person');
    await expect(page.getByRole('heading', { name: `Result: ${name}` })).toBeVisible();

    const saved = await carla.get<{
      items: {
        name: string;
        schedule: string;
        scheduleFormat: string;
        nextRunAt: string | null;
        sharedWithUsers: { name: string }[];
        definition: { dimensions: string[] };
      }[];
    }>('/api/reports');
    const stored = saved.items.find((r) => r.name === name)!;
    expect(stored).toMatchObject({
      schedule: 'weekly',
      scheduleFormat: 'pdf',
      definition: { dimensions: ['category', 'month'] },
    });
    expect(new Date(stored.nextRunAt!).getUTCDay()).toBe(1);
    expect(stored.sharedWithUsers.map((u) => u.name).join()).toMatch(/Felix/);

    await expectAccessible(page);
    await snap(page, 'advanced-reporting-carla');

    await page.setViewportSize(MOBILE);
    await expect(page.getByRole('list', { name: 'Report rows' })).toBeVisible();
    await expect(table).toBeHidden();
    await noSidewaysScroll(page);
    await snap(page, 'advanced-reporting-carla');
    await page.setViewportSize(DESKTOP);
  });

  test("felix sees only his subsidiary's rows and the report shared with him", async ({ page, request }) => {
    const felixApi = await apiAs(request, 'felix');
    const options = await felixApi.get<{ organizations: { id: string; name: string }[] }>('/api/reports/options');
    expect(options.organizations).toHaveLength(1);
    const subsidiary = options.organizations[0]!.name;

    const carla = await apiAs(request, 'carla');
    const people = await carla.get<{ items: { id: string; name: string }[] }>('/api/reports/recipients?q=felix');
    const name = `For felix ${suffix()}`;
    const now = new Date().toISOString().slice(0, 7);
    await carla.post('/api/reports', {
      name,
      definition: {
        dimensions: ['organization', 'status'],
        measures: ['sum', 'count', 'average'],
        filters: { from: `${Number(now.slice(0, 4)) - 1}${now.slice(4)}`, to: now },
        view: 'table',
      },
      sharedWithUserIds: [people.items[0]!.id],
    });

    await signInAs(page, 'felix', undefined, '/advanced-reporting');
    await expect(page.getByRole('heading', { name: 'Advanced Reporting', level: 1 })).toBeVisible();
    // One organization in his scope: no organization filter to choose from.
    await expect(page.getByRole('combobox', { name: 'Organization' })).toHaveCount(0);

    const item = page.getByRole('list', { name: 'Saved reports' }).getByRole('listitem').filter({ hasText: name });
    await expect(item).toContainText(/Shared by Carla/);
    // Shared: he may open and export it, not change or delete it.
    await expect(item.getByRole('button', { name: /^Delete/ })).toHaveCount(0);
    await item.getByRole('button', { name: `Open ${name}` }).click();
    await expect(page.getByRole('button', { name: 'Save changes' })).toHaveCount(0);

    const table = page.getByRole('table', { name: 'Report rows and totals' });
    await expect(table.getByRole('columnheader', { name: 'Organization' })).toBeVisible();
    await expect(table.locator('tbody tr').first()).toBeVisible();
    const orgs = await table.locator('tbody tr td:first-child').allTextContents();
    expect(orgs.length).toBeGreaterThan(0);
    for (const o of orgs) expect(o).toBe(subsidiary);
    await expect(page.getByTestId('report-chart')).toHaveCount(0);

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: /XLSX/ }).click();
    expect((await download).suggestedFilename()).toMatch(
      /^for-felix-[a-z0-9]+-\d{4}-\d{2}-to-\d{4}-\d{2}-meridian-logistics-USD-\d{4}-\d{2}-\d{2}\.xlsx$/,
    );

    await expectAccessible(page);
    await snap(page, 'advanced-reporting-felix');
    await page.setViewportSize(MOBILE);
    await noSidewaysScroll(page);
    await snap(page, 'advanced-reporting-felix');
    await page.setViewportSize(DESKTOP);
  });

  test('rita (requester) is refused the screen and its calls', async ({ page, request }) => {
    await signInAs(page, 'rita', undefined, '/advanced-reporting');
    await expect(page.getByTestId('access-restricted')).toBeVisible();
    const rita = await apiAs(request, 'rita');
    await expect(rita.get('/api/reports')).rejects.toThrow(/403/);
    await expect(
      rita.post('/api/reports/run', {
        definition: { dimensions: ['category'], measures: ['sum'], filters: { from: '2026-01', to: '2026-03' } },
      }),
    ).rejects.toThrow(/403/);
  });
});
