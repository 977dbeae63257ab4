import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { expectAccessible, MOBILE, pageAs, snap } from './fixtures';

const SAMPLES = join(import.meta.dirname, '..', 'public', 'samples', 'receipts');

async function choose(page: Page, field: RegExp | string, option: RegExp | string) {
  await page.getByRole('combobox', { name: field }).click();
  await page.getByRole('option', { name: option }).first().click();
}

// rita reads receipts of her own; the title carries a stamp so other specs' requests do not matter.
test.describe('Receipt Photo AI', () => {
  test('a photographed receipt is read, reviewed with its confidences, corrected and becomes a submitted request with the receipt attached', async ({
    browser,
  }) => {
    const page = await pageAs(browser, 'rita', '/receipt-photo-ai');
    await expect(page.getByRole('heading', { level: 1, name: 'Receipt Photo AI' })).toBeVisible();
    await expect(page.locator('[data-scaffold]')).toHaveCount(0);
    const input = page.getByLabel('Receipt photo or PDF');
    await expect(input).toHaveAttribute('capture', 'environment');
    await expect(input).toHaveAttribute('accept', 'image/*,application/pdf');
    await expectAccessible(page);
    await snap(page, 'receipts-empty');

    await input.setInputFiles({
      name: 'coffee.jpg',
      mimeType: 'image/jpeg',
      buffer: readFileSync(join(SAMPLES, 'us-coffee-photo.jpg')),
    });
    const review = page.getByRole('form', { name: 'Review the receipt' });
    await expect(review).toBeVisible({ timeout: 60_000 });
    await expect(review.getByLabel('Merchant')).toHaveValue('Blue Bottle Coffee');
    await expect(review.getByLabel('Date')).toHaveValue('2026-03-07');
    await expect(review.getByLabel('Total')).toHaveValue('20.60');
    await expect(review.getByLabel('Tax (VAT or sales tax)')).toHaveValue('1.40');
    await expect(review.getByRole('combobox', { name: /^Currency/ })).toContainText('USD');
    for (const field of ['merchant', 'date', 'total', 'tax', 'currency'])
      await expect(page.getByTestId(`receipt-field-${field}`)).toContainText('% sure');
    await expect(page.getByRole('img', { name: 'The receipt coffee.jpg' })).toBeVisible();
    await expectAccessible(page);
    await snap(page, 'receipts-review');

    // The person corrects the title, picks the category and (the sample receipt being months old,
    // past the demo policy's 90 days) puts today's date, then submits.
    const title = `Client coffee ${Date.now()}`;
    await review.getByLabel('Request title').fill(title);
    await choose(page, /^Category/, /^Office Supplies/);
    await review.getByLabel('Date').fill(new Date().toISOString().slice(0, 10));
    await review.getByRole('button', { name: 'Submit for approval' }).click();
    const saved = page.getByTestId('receipt-request-saved');
    await expect(saved).toBeVisible({ timeout: 30_000 });
    await expect(saved).toContainText(title);
    await expect(saved).toContainText('$20.60');
    await expect(saved).toContainText('Receipt attached: coffee.jpg');
    await expect(saved.getByRole('heading')).toHaveText(/Submitted for approval|Approved automatically/);
    await snap(page, 'receipts-saved');

    await saved.getByRole('link', { name: 'Open request' }).click();
    // The request opens in a dialog over My Requests, whose row (now behind it) carries the title too.
    const opened = page.getByRole('dialog', { name: 'Request' });
    await expect(opened.getByRole('heading', { name: title })).toBeVisible();
    await expect(opened.getByText('coffee.jpg').first()).toBeVisible();
    await page.context().close();
  });

  test('on a phone: a shipped sample PDF is read from its text layer, and a file that is not a receipt is refused clearly', async ({
    browser,
  }) => {
    const page = await pageAs(browser, 'rita', '/receipt-photo-ai', MOBILE);
    await page.getByRole('button', { name: 'Office supplies invoice (PDF)' }).click();
    const review = page.getByRole('form', { name: 'Review the receipt' });
    await expect(review).toBeVisible({ timeout: 60_000 });
    await expect(review.getByLabel('Merchant')).toHaveValue('Acme Office Supplies');
    await expect(review.getByLabel('Date')).toHaveValue('2026-03-02');
    await expect(review.getByLabel('Total')).toHaveValue('176.38');
    await expect(page.getByText('Every field was read with confidence.', { exact: false })).toBeVisible();
    await expect(page.locator('[data-low="true"]')).toHaveCount(0);
    // Nothing on the page is wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
    await expectAccessible(page);
    await snap(page, 'receipts-review');

    await review.getByRole('button', { name: 'Start over' }).click();
    await page
      .getByLabel('Receipt photo or PDF')
      .setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('not a picture at all') });
    await expect(
      page.getByRole('alert').filter({ hasText: 'A receipt must be a PNG or JPEG photo or a PDF' }),
    ).toBeVisible({ timeout: 30_000 });
    await snap(page, 'receipts-refused');
    await page.context().close();
  });
});
