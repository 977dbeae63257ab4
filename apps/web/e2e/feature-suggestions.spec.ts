import { expect, test } from '@playwright/test';
import { apiAs, expectAccessible, MOBILE, pageAs, signInAs, snap } from './fixtures';

// leo suggests, yusuf votes and comments, adam sets the status: names of their own, so other specs' data does not matter.
test.describe('Feature suggestions', () => {
  test('submit, vote once, comment, and a status the author is told about', async ({ browser, request }) => {
    const title = `Approve from the e-mail ${Date.now()}`;
    const leo = await pageAs(browser, 'leo', '/feature-suggestions');
    await expect(leo.getByRole('heading', { level: 1, name: 'Feature Suggestions' })).toBeVisible();
    await expect(leo.locator('[data-scaffold]')).toHaveCount(0);
    await leo.getByRole('button', { name: 'New suggestion' }).click();
    const dialog = leo.getByRole('dialog');
    await dialog.getByLabel('Title').fill('Hi');
    await dialog.getByRole('button', { name: 'Submit suggestion' }).click();
    await expect(dialog.getByText('The title must be at least 5 characters')).toBeVisible();
    await dialog.getByLabel('Title').fill(title);
    await dialog
      .getByLabel('Description')
      .fill('Approvers on the road could answer the notification e-mail.\n<b>not bold</b>');
    await dialog.getByRole('button', { name: 'Submit suggestion' }).click();
    // The new suggestion opens: the author's vote counts, markup stays text.
    const detail = leo.getByRole('dialog');
    await expect(detail.getByRole('heading', { name: title })).toBeVisible();
    await expect(detail.getByText('<b>not bold</b>', { exact: false })).toBeVisible();
    await expect(detail.getByRole('button', { name: `Remove your vote for ${title}, 1 vote` })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await detail.press('Escape');

    const yusuf = await pageAs(browser, 'yusuf', '/feature-suggestions?q=' + encodeURIComponent(title));
    const vote = yusuf.getByRole('button', { name: `Vote for ${title}, 1 vote` });
    await vote.click();
    await expect(yusuf.getByRole('button', { name: `Remove your vote for ${title}, 2 votes` })).toBeVisible();
    await yusuf.getByRole('button', { name: title, exact: true }).click();
    const yd = yusuf.getByRole('dialog');
    await yd.getByLabel('Add a comment').fill('Yes please, from the phone too.');
    await yd.getByRole('button', { name: 'Post comment' }).click();
    await expect(yd.getByRole('listitem').getByText('Yes please, from the phone too.')).toBeVisible();
    await expect(yd.getByLabel('Add a comment')).toHaveValue('');
    // No status controls without feedback.manage.
    await expect(yd.getByRole('form', { name: 'Set the status' })).toHaveCount(0);
    await expectAccessible(yusuf);
    await snap(yusuf, 'feature-suggestions-detail');

    const adam = await pageAs(browser, 'adam', '/feature-suggestions?q=' + encodeURIComponent(title));
    await adam.getByRole('button', { name: title, exact: true }).click();
    const ad = adam.getByRole('dialog');
    await ad.getByRole('combobox', { name: 'Status' }).selectOption('planned');
    await ad.getByLabel('Note to the author (optional)').fill('In the next release.');
    await ad.getByRole('button', { name: 'Save status' }).click();
    await expect(ad.getByText('In the next release.').first()).toBeVisible();
    await expect(ad.getByText('Planned').first()).toBeVisible();
    await ad.press('Escape');

    const leoApi = await apiAs(request, 'leo');
    const mine = await leoApi.get<{ items: { title: string; link: string }[] }>(
      '/api/notifications?type=feature_suggestion_status',
    );
    expect(mine.items.map((n) => n.title)).toContain(`Your suggestion "${title}" is now planned`);

    await leo.goto('/feature-suggestions?status=planned&q=' + encodeURIComponent(title));
    await expect(leo.getByRole('table')).toContainText(title);
    await expect(leo.getByRole('table')).toContainText('Planned');
    await snap(leo, 'feature-suggestions-list');
    for (const p of [leo, yusuf, adam]) await p.context().close();
  });

  test('fits a phone: cards with a vote button', async ({ page, request }) => {
    const title = `Phone idea ${Date.now()}`;
    const leo = await apiAs(request, 'leo');
    await leo.post('/api/feature-suggestions', { title, description: 'Cards should show the vote button on a phone.' });
    await page.setViewportSize(MOBILE);
    await signInAs(page, 'yusuf', undefined, '/feature-suggestions?q=' + encodeURIComponent(title));
    const card = page.getByTestId('suggestion-card').filter({ hasText: title });
    await expect(card).toBeVisible();
    await card.getByRole('button', { name: `Vote for ${title}, 1 vote` }).click();
    await expect(card.getByRole('button', { name: `Remove your vote for ${title}, 2 votes` })).toBeVisible();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(MOBILE.width);
    await snap(page, 'feature-suggestions-list');
  });
});
