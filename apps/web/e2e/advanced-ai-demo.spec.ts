import { expect, test, type Page } from '@playwright/test';
import { expectAccessible, MOBILE, pageAs, snap } from './fixtures';

function step(page: Page, key: string) {
  return page.getByTestId(`demo-step-${key}`);
}

// The tour only reads (nothing it runs saves a record), so the seeded world is all it needs.
test.describe('Advanced AI Demo', () => {
  test('an administrator walks the tour: the sample receipt, sentence, question and search come back with real results', async ({
    browser,
  }) => {
    const page = await pageAs(browser, 'adam', '/advanced-ai-demo');
    await expect(page.getByRole('heading', { level: 1, name: 'Advanced AI Demo' })).toBeVisible();
    await expect(page.locator('[data-scaffold]')).toHaveCount(0);
    const progress = page.getByRole('progressbar', { name: 'Tour progress' });
    await expect(progress).toHaveAttribute('aria-valuetext', 'Step 1 of 8: Receipt reading');
    await expect(page.getByRole('button', { name: 'Back' })).toBeDisabled();
    await expect(page.getByRole('img', { name: /^Sample receipt/ })).toBeVisible();

    // 1. The shipped receipt photo, posted as an upload to the real reader.
    const receipt = step(page, 'receipt');
    await receipt.getByRole('button', { name: 'Run: read the receipt' }).click();
    await expect(receipt.getByTestId('demo-receipt-merchant')).toContainText('Blue Bottle Coffee', { timeout: 60_000 });
    await expect(receipt.getByTestId('demo-receipt-total')).toContainText('$20.60');
    await expect(receipt.getByTestId('demo-receipt-tax')).toContainText('$1.40');
    await expect(receipt.getByTestId('demo-receipt-currency')).toContainText('USD');
    await expect(receipt.getByTestId('demo-receipt-total')).toContainText('% sure');
    await expect(receipt.getByRole('link', { name: /Open the full screen: Receipt Photo AI/ })).toBeVisible();
    await expect(page.getByText('1 of 8 run')).toBeVisible();
    await expectAccessible(page);
    await snap(page, 'ai-demo-receipt');

    // 2. A typed sentence becomes a draft; the step's heading takes the focus after Next.
    await page.getByRole('button', { name: 'Next' }).click();
    const sentence = step(page, 'sentence');
    await expect(sentence.getByRole('heading', { name: '2. Spoken or typed entry' })).toBeFocused();
    await expect(receipt).toBeHidden();
    await sentence.getByRole('button', { name: 'Run: read the sentence' }).click();
    const draft = sentence.getByTestId('demo-sentence-result');
    await expect(draft).toContainText('$45.00');
    await expect(draft).toContainText(/Taxi to the airport/i);

    // 3. The Copilot answers with a table of the top five vendors.
    await page.getByRole('button', { name: 'Next' }).click();
    const copilot = step(page, 'copilot');
    await copilot.getByRole('button', { name: 'Run: ask the Copilot' }).click();
    await expect(copilot.getByText(/^Top 5 vendors by spend/)).toBeVisible({ timeout: 30_000 });
    await expect(copilot.getByRole('region', { name: 'Answer table' }).getByRole('row')).toHaveCount(6);
    await expectAccessible(page);
    await snap(page, 'ai-demo-copilot');

    // 4. Search, reached from the keyboard: arrow keys along the steps, Enter opens one.
    await page.getByRole('button', { name: /^Step 3: Copilot/ }).focus();
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('button', { name: /^Step 4: Search/ })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(progress).toHaveAttribute('aria-valuetext', 'Step 4 of 8: Search');
    const search = step(page, 'search');
    await search.getByRole('button', { name: 'Run: search' }).click();
    const results = search.getByRole('list', { name: 'Ranked results' });
    await expect(results.getByRole('link', { name: 'Skyline Travel Group' })).toBeVisible();
    await expect(results.getByRole('listitem').filter({ hasText: 'Skyline Travel Group' })).toContainText('Vendor');
    await expect(page.getByText('4 of 8 run')).toBeVisible();
    await snap(page, 'ai-demo-search');

    // Going back keeps what a step already showed.
    await page.getByRole('button', { name: /^Step 1: Receipt reading/ }).click();
    await expect(receipt.getByTestId('demo-receipt-merchant')).toContainText('Blue Bottle Coffee');

    // The admin may run every step: each one offers its Run and its full screen, none is refused.
    for (const [key, title] of [
      ['smart-form', 'Smart Request Form'],
      ['findings', 'Smart Analytics'],
      ['forecasts', 'Predictive Budgeting'],
      ['coaching', 'Expense Coaching'],
    ] as const) {
      await expect(
        step(page, key).getByRole('link', { name: `Open the full screen: ${title}`, includeHidden: true }),
      ).toHaveCount(1);
    }
    await expect(page.getByTestId('demo-step-not-allowed')).toHaveCount(0);

    // 5. The smart form's suggestions for the sample description.
    await page.getByRole('button', { name: /^Step 5: Smart form suggestions/ }).click();
    const smart = step(page, 'smart-form');
    await smart.getByRole('button', { name: 'Run: suggest' }).click();
    await expect(smart.getByTestId('demo-smart-form-result')).toContainText(/Learned from [\d,]+ past request/);

    // 6 and 7. Findings and forecasts over the demo history.
    await page.getByRole('button', { name: 'Next' }).click();
    const findings = step(page, 'findings');
    await findings.getByRole('button', { name: 'Run: look for findings' }).click();
    await expect(findings.getByTestId('demo-findings-result')).toContainText(/[\d,]+ requests? examined/, {
      timeout: 30_000,
    });
    await page.getByRole('button', { name: 'Next' }).click();
    const forecasts = step(page, 'forecasts');
    await forecasts.getByRole('button', { name: 'Run: forecast' }).click();
    await expect(forecasts.getByTestId('demo-forecasts-result')).toContainText(
      /[\d,]+ budget lines? forecast; backtest error \(MAPE\)/,
      { timeout: 30_000 },
    );
    await expect(page.getByText('7 of 8 run')).toBeVisible();
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.getByRole('button', { name: 'Next' })).toBeDisabled();
    await expect(progress).toHaveAttribute('aria-valuetext', 'Step 8 of 8: Coaching');
    await expectAccessible(page);
    await page.context().close();
  });

  test('on a phone the tour fits the screen and reads the sample receipt', async ({ browser }) => {
    const page = await pageAs(browser, 'adam', '/advanced-ai-demo', MOBILE);
    const receipt = step(page, 'receipt');
    await receipt.getByRole('button', { name: 'Run: read the receipt' }).click();
    await expect(receipt.getByTestId('demo-receipt-total')).toContainText('$20.60', { timeout: 60_000 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
    await expectAccessible(page);
    await snap(page, 'ai-demo-receipt');

    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('button', { name: 'Next' }).click();
    const copilot = step(page, 'copilot');
    await copilot.getByRole('button', { name: 'Run: ask the Copilot' }).click();
    await expect(copilot.getByRole('region', { name: 'Answer table' })).toBeVisible({ timeout: 30_000 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
    await snap(page, 'ai-demo-copilot');
    await page.context().close();
  });

  test('a requester sees the steps her role may not run explained, and runs the others', async ({ browser }) => {
    const page = await pageAs(browser, 'rita', '/advanced-ai-demo');
    for (const [n, key, title, permission] of [
      [6, 'findings', 'Findings', 'reports.read'],
      [7, 'forecasts', 'Forecasts', 'budgets.read'],
    ] as const) {
      await page.getByRole('button', { name: new RegExp(`^Step ${n}: ${title}`) }).click();
      const refused = step(page, key).getByTestId('demo-step-not-allowed');
      await expect(refused).toBeVisible();
      await expect(refused).toContainText(`needs the “${permission}” permission`);
      await expect(step(page, key).getByRole('button', { name: /^Run/ })).toHaveCount(0);
      await expect(step(page, key).getByRole('link', { name: /Open the full screen/ })).toHaveCount(0);
    }
    await expectAccessible(page);
    await snap(page, 'ai-demo-refused');

    // Her own coaching and the sentence are hers to run.
    await page.getByRole('button', { name: 'Next' }).click();
    const coaching = step(page, 'coaching');
    await coaching.getByRole('button', { name: 'Run: coach me' }).click();
    await expect(coaching.getByTestId('demo-coaching-result')).toContainText('My spend');
    await page.getByRole('button', { name: /^Step 2: Spoken or typed entry/ }).click();
    await step(page, 'sentence').getByRole('button', { name: 'Run: read the sentence' }).click();
    await expect(step(page, 'sentence').getByTestId('demo-sentence-result')).toContainText('$45.00');
    await page.context().close();
  });
});
