import { expect, test, type Locator, type Page } from '@playwright/test';
import type { Consolidation } from '@outlay/contracts/consolidation';
import { fiscalPresetLabel, fiscalPresetRange, fiscalQuarterLabel } from '@outlay/contracts/fiscal-calendar';
import {
  apiAs,
  DESKTOP,
  expectAccessible,
  expectNoSidewaysScroll,
  MOBILE,
  pickOption,
  signInAs,
  snap,
} from './fixtures';

/*
 * Meridian Foods' fiscal year starts in April. carla (cfo) sees it where periods are chosen or
 * shown: a new budget line says which period its start makes (or why it is not one of Foods'),
 * consolidation's columns for Foods are its fiscal quarters, and the report builder's fiscal
 * periods and quarter grouping follow the organization chosen. Nothing is saved.
 */
const localToday = () => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

/** The page at 390×844 once its phone layout (`ready`) has replaced the desktop one: nothing scrolls sideways. */
async function phone(page: Page, name: string, ready: Locator) {
  await page.setViewportSize(MOBILE);
  await expect(ready).toBeVisible();
  await expectNoSidewaysScroll(page);
  await snap(page, name);
  await page.setViewportSize(DESKTOP);
}

test.describe('fiscal years', () => {
  test('a new budget line names the fiscal period its start makes, and refuses one off the calendar', async ({
    page,
  }) => {
    await page.setViewportSize(DESKTOP);
    await signInAs(page, 'carla', undefined, '/budget-management');
    await page.getByRole('button', { name: 'New line' }).click();
    const dialog = page.getByRole('dialog', { name: 'New budget line' });
    await pickOption(page, dialog.getByLabel('Organization'), 'Meridian Foods');
    await pickOption(page, dialog.getByLabel('Period'), 'Year');
    const start = dialog.getByLabel('Starting month');
    await start.fill('2031-01');
    await expect(dialog).toContainText("Meridian Foods' fiscal year starts in April: a year line starts on 1 April");
    await snap(page, 'fiscal-years-budget-line-refused');
    await start.fill('2031-04');
    await expect(dialog).toContainText('FY 2031/32: Apr 1, 2031 to Mar 31, 2032');
    await pickOption(page, dialog.getByLabel('Period'), 'Quarter');
    await start.fill('2031-10');
    await expect(dialog).toContainText('Q3 FY 2031/32');
    await expectAccessible(page);
    await snap(page, 'fiscal-years-budget-line');
    await page.setViewportSize(MOBILE);
    await expect(dialog).toContainText('Q3 FY 2031/32');
    await snap(page, 'fiscal-years-budget-line');
  });

  test('consolidation shows Meridian Foods in its fiscal quarters, the group in calendar quarters', async ({
    page,
  }) => {
    const carla = await apiAs(page.request, 'carla');
    await page.setViewportSize(DESKTOP);
    await signInAs(page, 'carla', undefined, '/consolidated-financials');
    await expect(page.getByTestId('consolidation-table')).toContainText('Meridian Foods');
    await expect(page.getByText(/fiscal year, which starts in/)).toHaveCount(0);
    await pickOption(page, page.locator('#cf-org'), 'Meridian Foods');
    await expect(page.getByText("Quarters follow Meridian Foods' fiscal year, which starts in April.")).toBeVisible();
    const from = await page.getByLabel('From month').inputValue();
    const to = await page.getByLabel('To month').inputValue();
    const foods = (
      await carla.get<Consolidation>(`/api/consolidation?from=${from}&to=${to}&granularity=quarter`)
    ).organizations.find((o) => o.name === 'Meridian Foods')!;
    const data = await carla.get<Consolidation>(
      `/api/consolidation?from=${from}&to=${to}&granularity=quarter&organizationId=${foods.id}`,
    );
    const table = page.getByTestId('consolidation-table');
    for (const p of data.periods) await expect(table.getByRole('columnheader', { name: p.label })).toBeVisible();
    await expect(table.getByRole('columnheader', { name: fiscalQuarterLabel(to, 4) })).toBeVisible();
    await expectAccessible(page);
    await snap(page, 'fiscal-years-consolidation');
    await phone(page, 'fiscal-years-consolidation', page.getByRole('list', { name: 'Companies' }));
  });

  test("the report builder offers Meridian Foods' fiscal periods and groups by its fiscal quarter", async ({
    page,
  }) => {
    await page.setViewportSize(DESKTOP);
    await signInAs(page, 'carla', undefined, '/advanced-reporting');
    await expect(page.getByTestId('report-chart')).toBeVisible();
    await expect(page.getByTestId('report-fiscal-year')).toHaveText('Fiscal year from January');
    await pickOption(page, page.locator('#report-org'), 'Meridian Foods');
    await expect(page.getByTestId('report-fiscal-year')).toHaveText('Fiscal year from April');
    const today = localToday();
    const preset = fiscalPresetLabel('yearToDate', today, 4);
    await pickOption(page, page.locator('#report-preset'), preset);
    const range = fiscalPresetRange('yearToDate', today, 4);
    await expect(page.getByLabel('From month')).toHaveValue(range.from);
    await expect(page.getByLabel('To month')).toHaveValue(range.to);
    // Grouped by fiscal quarter alone.
    await page.locator('#dim-category').uncheck();
    await page.locator('#dim-quarter').check();
    await page.getByRole('button', { name: 'Run report' }).click();
    const table = page.getByRole('table', { name: 'Report rows and totals' });
    await expect(table.getByRole('columnheader', { name: 'Fiscal quarter' })).toBeVisible();
    await expect(table.locator('tbody tr').first()).toContainText('Q1 FY ');
    await expect(table.locator('tbody')).toContainText(fiscalQuarterLabel(range.to, 4));
    // Choosing months by hand leaves the preset.
    await page.getByLabel('From month').fill('2026-02');
    await expect(page.locator('#report-preset')).toHaveText('Months chosen');
    await expectAccessible(page);
    await snap(page, 'fiscal-years-report');
    await phone(page, 'fiscal-years-report', page.getByRole('list', { name: 'Report rows' }));
  });
});
