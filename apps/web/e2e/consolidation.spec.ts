import { expect, test } from '@playwright/test';
import type { Consolidation } from '@outlay/contracts/consolidation';
import { apiAs, DESKTOP, expectAccessible, MOBILE, signInAs, snap } from './fixtures';

/*
 * Consolidated financials read the seeded history (nothing is changed here): carla (cfo) sees
 * every group company with the intercompany eliminations, felix (subsidiary finance) his own
 * company only, rita (requester) is refused.
 */
/** The screen's default range: from the start of the quarter twelve months back to this month. */
function defaultRange(now = new Date()) {
  const back = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 11, 1));
  const start = new Date(Date.UTC(back.getUTCFullYear(), back.getUTCMonth() - (back.getUTCMonth() % 3), 1));
  return { from: start.toISOString().slice(0, 7), to: now.toISOString().slice(0, 7) };
}
const money = (amount: string, currency = 'USD') =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(Number(amount));

test.describe('consolidated financials', () => {
  test('carla sees the group: companies by quarter, eliminations, rates on focus, drill-down, exports', async ({
    page,
  }) => {
    const { from, to } = defaultRange();
    const api = await apiAs(page.request, 'carla');
    const data = await api.get<Consolidation>(`/api/consolidation?from=${from}&to=${to}&granularity=quarter`);
    expect(data.intercompany.length, 'the seed has intercompany spend').toBeGreaterThan(0);

    await page.setViewportSize(DESKTOP);
    await signInAs(page, 'carla', undefined, '/consolidated-financials');
    await expect(page.getByRole('heading', { name: 'Consolidated Financials' })).toBeVisible();
    await expect(page.locator('[data-scaffold]')).toHaveCount(0);
    const totals = page.getByRole('region', { name: /Group totals/ });
    await expect(totals).toContainText(money(data.totals.overall.consolidated));
    await expect(totals).toContainText(money(data.totals.overall.beforeElimination));
    const table = page.getByTestId('consolidation-table');
    for (const name of ['Meridian Logistics', 'Meridian Energy', 'Meridian Foods', 'Meridian Tech'])
      await expect(table).toContainText(name);
    await expect(table.getByRole('row', { name: /Consolidated total/ })).toContainText(
      money(data.totals.overall.consolidated),
    );
    await expect(page.getByRole('heading', { name: 'Intercompany eliminations' })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Intercompany eliminations' })).toContainText(
      data.intercompany[0]!.counterpartyName,
    );
    await expectAccessible(page);
    await snap(page, 'consolidation');

    // The keyboard reaches an amount; its tooltip gives the original amount and the rates.
    const energy = data.subsidiaries.find((s) => s.currency === 'EUR')!;
    const cell = table.getByRole('button', {
      name: `${energy.organizationName} spend, ${data.periods.at(-1)!.label}:`,
      exact: false,
    });
    await cell.focus();
    await expect(page.getByRole('tooltip')).toContainText('Original: €');
    await expect(page.getByRole('tooltip')).toContainText('average: 1 EUR =');
    await snap(page, 'consolidation-rate-tooltip');
    await page.keyboard.press('Escape');

    // Drill-down: company → category → requests.
    await table.getByRole('button', { name: /Meridian Energy.*show categories/ }).click();
    const category = energy.categories[0]!;
    await table
      .getByRole('button', { name: new RegExp(category.categoryName) })
      .first()
      .click();
    const dialog = page.getByRole('dialog', {
      name: new RegExp(`Requests: Meridian Energy · ${category.categoryName}`),
    });
    await expect(
      dialog.getByRole('table', { name: 'Requests behind this figure' }).getByRole('row').nth(1),
    ).toContainText('REQ-');
    await expectAccessible(page);
    await snap(page, 'consolidation-drill-down');
    await page.keyboard.press('Escape');

    // Exports and the journal download.
    const xlsx = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export XLSX' }).click();
    expect((await xlsx).suggestedFilename()).toMatch(/^consolidated-financials-.*\.xlsx$/);
    const pdf = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export PDF' }).click();
    expect((await pdf).suggestedFilename()).toMatch(/\.pdf$/);
    await page.getByRole('button', { name: 'Download journal' }).click();
    const journal = page.waitForEvent('download');
    await page.getByRole('menuitem', { name: /Ledger text/ }).click();
    const file = await journal;
    expect(file.suggestedFilename()).toMatch(/^journal-.*\.journal$/);

    // Months as columns, one company.
    await page.getByRole('combobox', { name: 'Columns' }).click();
    await page.getByRole('option', { name: 'Month' }).click();
    await page.getByRole('combobox', { name: 'Company' }).click();
    await page.getByRole('option', { name: 'Meridian Foods' }).click();
    await expect(table).not.toContainText('Meridian Energy');
    const months = await api.get<Consolidation>(`/api/consolidation?from=${from}&to=${to}&granularity=month`);
    await expect(table.getByRole('columnheader')).toHaveCount(months.periods.length + 2);

    await page.setViewportSize(MOBILE);
    await page.getByRole('combobox', { name: 'Company' }).click();
    await page.getByRole('option', { name: 'All companies' }).click();
    await page.getByRole('combobox', { name: 'Columns' }).click();
    await page.getByRole('option', { name: 'Quarter' }).click();
    await expect(page.getByRole('list', { name: 'Companies' }).getByRole('listitem').first()).toBeVisible();
    const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, view: window.innerWidth }));
    expect(widths.page).toBeLessThanOrEqual(widths.view);
    await expectAccessible(page);
    await snap(page, 'consolidation');
  });

  test('felix sees his own company only; rita is refused', async ({ page, browser }) => {
    await page.setViewportSize(DESKTOP);
    await signInAs(page, 'felix', undefined, '/consolidated-financials');
    const table = page.getByTestId('consolidation-table');
    await expect(table).toContainText('Meridian Logistics');
    await expect(table).not.toContainText('Meridian Energy');
    await expect(page.getByRole('combobox', { name: 'Company' })).toHaveCount(0);
    await expectAccessible(page);
    await snap(page, 'consolidation-felix');

    const rita = await browser.newPage();
    await signInAs(rita, 'rita', undefined, '/consolidated-financials');
    await expect(rita.getByTestId('access-restricted')).toBeVisible();
    await expect(rita.getByTestId('consolidation-table')).toHaveCount(0);
    await rita.close();
  });
});
