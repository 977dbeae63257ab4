import { expect, test } from '@playwright/test';
import { expectAccessible, MOBILE, pageAs, snap } from './fixtures';

// Reads only: the forecasts of the seeded budget lines, whatever other specs add to them.
test.describe('Predictive Budgeting', () => {
  test('each budget line in force forecast with its band, overrun day and next budget, and the backtest error, on a desktop and a phone', async ({
    browser,
  }) => {
    const carla = await pageAs(browser, 'carla', '/predictive-budgeting');
    await expect(carla.getByRole('heading', { level: 1, name: 'Predictive Budgeting' })).toBeVisible();
    await expect(carla.locator('[data-scaffold]')).toHaveCount(0);
    await expect(carla.getByTestId('backtest')).toContainText(/Backtest error \(MAPE\): [\d,.]+%/);
    await expect(carla.getByTestId('backtest')).toContainText(/one month ahead/);
    const cards = carla.getByTestId('forecast');
    await expect(cards.first()).toBeVisible();
    expect(await cards.count()).toBeGreaterThan(5);
    const first = cards.first();
    await expect(first).toContainText('Forecast at period end');
    await expect(first).toContainText('95% band');
    await expect(first).toContainText(/Suggested budget for /);
    await first.getByRole('button', { name: 'Show the months' }).click();
    await expect(first.getByRole('region', { name: /^Months of / })).toContainText('(forecast)');
    await expectAccessible(carla);
    await snap(carla, 'predictive-budgeting');

    const phone = await pageAs(browser, 'carla', '/predictive-budgeting', MOBILE);
    await expect(phone.getByTestId('forecast').first()).toBeVisible();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectAccessible(phone);
    await snap(phone, 'predictive-budgeting');
    for (const p of [carla, phone]) await p.context().close();
  });

  test('people without budgets.read do not reach it', async ({ browser }) => {
    const rita = await pageAs(browser, 'rita', '/predictive-budgeting');
    await expect(rita.getByTestId('access-restricted')).toBeVisible();
    await rita.context().close();
  });
});
