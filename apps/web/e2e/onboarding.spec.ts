import { expect, test } from '@playwright/test';
import { apiAs, expectAccessible, MOBILE, signInAs, snap } from './fixtures';

// leo (a requester in Meridian Foods) is onboarded here; no other spec signs him in.
test.describe('Onboarding checklist', () => {
  test.beforeEach(async ({ request }) => {
    const leo = await apiAs(request, 'leo');
    await leo.put('/api/onboarding/dismissed', { dismissed: false });
  });

  test('the dashboard shows the next steps; reading an article ticks its step; the card can be hidden and shown again', async ({
    page,
  }) => {
    await signInAs(page, 'leo');
    const card = page.getByTestId('onboarding-card');
    await expect(card).toBeVisible();
    await expect(card.getByRole('progressbar', { name: 'Onboarding progress' })).toBeVisible();
    await snap(page, 'onboarding-dashboard');

    await page.goto('/onboarding-tutorials');
    await expect(page.getByRole('heading', { level: 1, name: 'Onboarding Tutorials' })).toBeVisible();
    await expect(page.locator('[data-scaffold]')).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Getting started' })).toBeVisible();
    // A requester has no approval or administration steps.
    await expect(page.getByRole('heading', { name: 'Approving' })).toHaveCount(0);
    await expect(page.getByTestId('onboarding-step-submit_request')).toBeVisible();

    // Opening any article completes "Read a how-to article", from the server's own record.
    await page.goto('/tutorials?article=submitting-a-spending-request');
    await expect(
      page.getByRole('article').getByRole('heading', { level: 2, name: 'Submitting a spending request' }),
    ).toBeVisible();
    await page.goto('/onboarding-tutorials');
    await expect(page.getByTestId('onboarding-step-read_tutorial')).toHaveAttribute('data-done', 'true');
    await expect(page.getByTestId('onboarding-step-read_tutorial')).toContainText('Done on');
    await expectAccessible(page);
    await snap(page, 'onboarding-checklist');

    await page.goto('/');
    await page.getByTestId('onboarding-card').getByRole('button', { name: 'Hide the checklist' }).click();
    await expect(page.getByTestId('onboarding-card')).toHaveCount(0);
    await page.reload();
    await expect(page.getByRole('heading', { name: /, Leo$/ })).toBeVisible();
    await expect(page.getByTestId('onboarding-card')).toHaveCount(0);

    await page.goto('/onboarding-tutorials');
    await page.getByRole('button', { name: 'Show on dashboard' }).click();
    await page.goto('/');
    await expect(page.getByTestId('onboarding-card')).toBeVisible();
  });

  test('approvers get their own steps, and the checklist fits a phone', async ({ page }) => {
    await page.setViewportSize(MOBILE);
    await signInAs(page, 'leo', undefined, '/onboarding-tutorials');
    await expect(page.getByRole('progressbar', { name: 'Onboarding progress' })).toBeVisible();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(MOBILE.width);
    await snap(page, 'onboarding-checklist');
    await page.goto('/');
    await expect(page.getByTestId('onboarding-card')).toBeVisible();
    await snap(page, 'onboarding-dashboard');
  });
});
