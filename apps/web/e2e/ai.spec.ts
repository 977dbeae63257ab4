import { expect, test } from '@playwright/test';
import type { Browser } from '@playwright/test';
import { apiAs, DESKTOP, expectAccessible, MOBILE, pageAs, signInAs, snap } from './fixtures';

/** Leo's page with the browser's speech recognition taken away, or replaced by one that "hears" `heard`. */
async function voicePage(browser: Browser, viewport: { width: number; height: number }, heard: string | null) {
  const context = await browser.newContext({ viewport });
  await context.addInitScript((text) => {
    const w = window as unknown as Record<string, unknown>;
    delete w.SpeechRecognition;
    delete w.webkitSpeechRecognition;
    if (text === null) return;
    w.webkitSpeechRecognition = class {
      onresult: ((e: unknown) => void) | null = null;
      onerror: ((e: unknown) => void) | null = null;
      onend: (() => void) | null = null;
      start() {
        setTimeout(() => {
          this.onresult?.({ results: [[{ transcript: text }]] });
          this.onend?.();
        }, 50);
      }
      stop() {
        this.onend?.();
      }
    };
  }, heard);
  const page = await context.newPage();
  await signInAs(page, 'leo', undefined, '/voice-to-expense');
  return page;
}

test.describe('Voice to Expense', () => {
  test('a typed sentence becomes a draft to check, then a draft request', async ({ browser, request }) => {
    const marker = `Falcon${Date.now()}`;
    const page = await voicePage(browser, DESKTOP, null);
    await expect(page.getByRole('heading', { level: 1, name: 'Voice to Expense' })).toBeVisible();
    await expect(page.locator('[data-scaffold]')).toHaveCount(0);
    // Without speech recognition the microphone is off and says why; typing works.
    await expect(page.getByRole('button', { name: 'Speak' })).toBeDisabled();
    await expect(page.getByText('This browser has no speech recognition')).toBeVisible();

    await page.getByLabel('Sentence').fill(`team breakfast for project ${marker} 18 pounds yesterday`);
    await page.getByLabel('Sentence').press('Enter');
    const draft = page.getByRole('form', { name: 'Draft request' });
    await expect(draft.getByLabel('Title')).toHaveValue(`Team breakfast for project ${marker}`);
    await expect(draft.getByLabel('Amount')).toHaveValue('18.00');
    await expect(draft.getByLabel('Currency')).toHaveValue('GBP');
    await expect(draft.getByLabel('Category').locator('option:checked')).toHaveText('Meals');
    const yesterday = new Date(Date.now() - 86_400_000);
    const local = `${yesterday.getFullYear()}-${String(yesterday.getMonth() + 1).padStart(2, '0')}-${String(yesterday.getDate()).padStart(2, '0')}`;
    await expect(draft.getByLabel('Date')).toHaveValue(local);
    await draft.getByLabel('Amount').fill('19.50');
    await expectAccessible(page);
    await snap(page, 'ai-voice-draft');
    await draft.getByRole('button', { name: 'Create draft request' }).click();
    await expect(page.getByText(/Draft request REQ-\d+ created/)).toBeVisible();

    const api = await apiAs(request, 'leo');
    const list = await api.get<{ items: { title: string; amount: string; currency: string; status: string }[] }>(
      `/api/requests/mine?q=${marker}`,
    );
    expect(list.items).toHaveLength(1);
    expect(list.items[0]).toMatchObject({
      title: `Team breakfast for project ${marker}`,
      amount: '19.50',
      currency: 'GBP',
      status: 'draft',
    });

    // Spoken: what the recognition hears fills the box and is read at once.
    const phone = await voicePage(browser, MOBILE, 'taxi to the airport 45 dollars yesterday, client visit');
    await phone.getByRole('button', { name: 'Speak' }).click();
    await expect(phone.getByLabel('Sentence')).toHaveValue('taxi to the airport 45 dollars yesterday, client visit');
    await expect(phone.getByRole('form', { name: 'Draft request' }).getByLabel('Title')).toHaveValue(
      'Taxi to the airport, client visit',
    );
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await snap(phone, 'ai-voice-draft-phone');
  });
});

test.describe('AI Copilot', () => {
  test('answers with figures, a table and links, keeps the context of a follow-up, and refuses what the role may not see', async ({
    browser,
  }) => {
    const page = await pageAs(browser, 'grace', '/executive-ai-copilot');
    await expect(page.getByRole('heading', { level: 1, name: 'AI Copilot' })).toBeVisible();
    await expect(page.locator('[data-scaffold]')).toHaveCount(0);
    await page.getByRole('button', { name: 'Which budgets are above 90%?' }).click();
    const first = page.getByRole('article', { name: 'Question 1' });
    await expect(first.getByText(/budget line|No budget line/).first()).toBeVisible();
    await expect(first.getByRole('link', { name: 'Open Budget vs Actual' })).toBeVisible();

    const box = page.getByLabel('Your question');
    await box.fill('Top 5 vendors this year');
    await box.press('Enter');
    const second = page.getByRole('article', { name: 'Question 2' });
    await expect(second.getByRole('region', { name: 'Answer table' }).getByRole('row')).toHaveCount(6);
    await expect(second.getByText(/^Top 5 vendors by spend/)).toBeVisible();
    await expect(box).toBeFocused();
    await box.fill('and last year?');
    await box.press('Enter');
    const lastYear = String(new Date().getUTCFullYear() - 1);
    await expect(
      page
        .getByRole('article', { name: 'Question 3' })
        .getByText(new RegExp(`^Top \\d+ vendors by spend, ${lastYear} `)),
    ).toBeVisible();
    // The conversation survives a reload of the tab, and a follow-up still has its context.
    await page.reload();
    await expect(page.getByRole('article', { name: 'Question 3' })).toBeVisible();
    await expectAccessible(page);
    await snap(page, 'ai-copilot');
    await page.getByLabel('Your question').fill('How much did we spend this year?');
    await page.getByLabel('Your question').press('Enter');
    const months = page.getByRole('article', { name: 'Question 4' });
    await expect(months.getByRole('img', { name: /Spend by month/ })).toBeVisible();
    await months.getByRole('img', { name: /Spend by month/ }).scrollIntoViewIfNeeded();
    await expect(months.locator('.recharts-bar-rectangle').first()).toBeVisible();
    await snap(page, 'ai-copilot-months');
    await page.getByRole('button', { name: 'New conversation' }).click();
    await expect(page.getByRole('article')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Top 5 vendors this year' })).toBeVisible();

    const phone = await pageAs(browser, 'rita', '/executive-ai-copilot', MOBILE);
    await phone.getByLabel('Your question').fill('How much did the company spend this year?');
    await phone.getByRole('button', { name: 'Ask' }).click();
    await expect(phone.getByText(/You may not see spend figures/)).toBeVisible();
    await phone.getByLabel('Your question').fill('What is waiting for my approval?');
    await phone.getByLabel('Your question').press('Enter');
    await expect(
      phone.getByRole('article', { name: 'Question 2' }).getByText(/You may not see an approval queue/),
    ).toBeVisible();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await snap(phone, 'ai-copilot-phone');
  });
});
