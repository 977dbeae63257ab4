import { expect, test } from '@playwright/test';
import { expectAccessible, MOBILE, signInAs, snap } from './fixtures';

// james (head of Operations in Meridian Foods) reads the help; no other spec signs him in.
test.describe('Tutorials', () => {
  test('searches the articles by a word of their text and opens one with its headings', async ({ page }) => {
    await signInAs(page, 'james', undefined, '/tutorials');
    await expect(page.getByRole('heading', { level: 1, name: 'Tutorials' })).toBeVisible();
    await expect(page.locator('[data-scaffold]')).toHaveCount(0);
    const list = page.getByTestId('tutorial-list');
    await expect(list.getByRole('button')).toHaveCount(14);
    await expectAccessible(page);
    await snap(page, 'tutorials-list');

    // "pain.001" appears only in the payroll article's body.
    await page.getByLabel('Search the articles').fill('pain.001');
    await expect(list.getByRole('button')).toHaveCount(1);
    await expect(list).toContainText('Running payroll');
    await expect(list).toContainText('pain.001');
    await list.getByRole('button', { name: /Running payroll/ }).click();

    await expect(page).toHaveURL(/article=payroll-runs/);
    const article = page.getByRole('article');
    await expect(article.getByRole('heading', { level: 2, name: 'Running payroll' })).toBeVisible();
    await expect(article.getByRole('heading', { name: 'Prepare a run' })).toHaveAttribute('id', 'prepare-a-run');
    await expect(
      article.getByRole('navigation', { name: 'On this page' }).getByRole('link', { name: 'Approve' }),
    ).toHaveAttribute('href', '#approve');
    await expect(article.getByText(/Read on/)).toBeVisible();
    await expectAccessible(page);
    await snap(page, 'tutorials-article');

    await page.getByLabel('Search the articles').fill('zebra crossing');
    await expect(page.getByText(/No article matches/)).toBeVisible();
  });

  test('on a phone shows the list, then the article alone with a way back', async ({ page }) => {
    await page.setViewportSize(MOBILE);
    await signInAs(page, 'james', undefined, '/tutorials');
    await expect(page.getByTestId('tutorial-list').getByRole('button').first()).toBeVisible();
    await snap(page, 'tutorials-list');
    await page
      .getByTestId('tutorial-list')
      .getByRole('button', { name: /Delegating approvals/ })
      .click();
    const article = page.getByRole('article');
    await expect(article.getByRole('heading', { level: 2, name: /Delegating approvals/ })).toBeVisible();
    await expect(page.getByTestId('tutorial-list')).toBeHidden();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(MOBILE.width);
    await snap(page, 'tutorials-article');
    await page.getByRole('button', { name: 'All articles' }).click();
    await expect(page.getByTestId('tutorial-list')).toBeVisible();
  });
});
