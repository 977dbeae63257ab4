import { expect, test } from '@playwright/test';
import { apiAs, DESKTOP, expectAccessible, MOBILE, signInAs, snap } from './fixtures';

/*
 * The Smart Request Form: rita describes a freight job, the suggestions learned from Meridian
 * Logistics' past requests offer Logistics first; she applies category (Enter), vendor and
 * department (clicks), sees the live policy check and the budget impact, and submits. The title
 * carries a random suffix because the spec files share one server.
 */
const suffix = () => Math.random().toString(36).slice(2, 8);

test.describe('Smart Request Form', () => {
  test('suggests category, vendor and department while the description is typed, applies them, and submits', async ({
    page,
    request,
  }) => {
    const title = `Spot freight ${suffix()}`;
    await signInAs(page, 'rita', undefined, '/smart-form');
    await expect(page.getByRole('heading', { level: 1, name: 'Smart Request Form' })).toBeVisible();
    await expect(page.locator('[data-scaffold]')).toHaveCount(0);
    const panel = page.getByRole('region', { name: 'Suggestions' });
    await expect(panel).toContainText("suggestions from your organization's past requests appear here");

    await page.getByLabel(/^Title/).fill(title);
    await page.getByLabel(/^Description/).fill('Trucking from Long Beach to Dallas for the peak season.');

    // Category: Logistics ranked first, applied from the keyboard.
    const categories = panel.getByRole('group', { name: 'Suggested category' });
    const logistics = categories.getByRole('button', { name: /^Logistics \d+%$/ });
    await expect(categories.getByRole('button').first()).toHaveAccessibleName(/^Logistics/);
    await logistics.focus();
    await page.keyboard.press('Enter');
    await expect(logistics).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('combobox', { name: /^Category/ })).toContainText('Logistics (LOG)');

    // Vendor and department: clicked.
    const vendorButton = panel.getByRole('group', { name: 'Suggested vendor' }).getByRole('button').first();
    const vendorName = (await vendorButton.innerText()).replace(/\s*\d+%$/, '').trim();
    await vendorButton.click();
    await expect(vendorButton).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('combobox', { name: 'Vendor' })).toHaveValue(vendorName);
    const departmentButton = panel.getByRole('group', { name: 'Suggested department' }).getByRole('button').first();
    const departmentName = (await departmentButton.innerText()).replace(/\s*\d+%$/, '').trim();
    await departmentButton.click();
    await expect(page.getByRole('combobox', { name: /^Department/ })).toContainText(departmentName);
    await expect(panel).toContainText('Weighted by your own requests');
    await expect(panel.getByRole('button', { name: 'Apply top suggestions' })).toBeDisabled();

    // The live policy check and the budget impact, before submitting.
    await page.getByLabel(/^Amount/).fill('900');
    await expect(page.getByRole('region', { name: 'Policy checks' })).toContainText('Receipt required above 75');
    const impact = page.getByTestId('budget-impact');
    await expect(impact).toBeVisible();
    await expect(impact).not.toContainText('Enter an amount to see what it does to the budget.');

    await expectAccessible(page);
    await snap(page, 'smart-form');
    await page.setViewportSize(MOBILE);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
    await panel.scrollIntoViewIfNeeded();
    await snap(page, 'smart-form');
    await page.setViewportSize(DESKTOP);

    await page.getByRole('button', { name: 'Submit for approval' }).click();
    const saved = page.getByTestId('request-saved');
    await expect(saved).toContainText(/Submitted for approval|Approved automatically/);
    await expect(saved).toContainText(title);
    const href = await saved.getByRole('link', { name: 'Open request' }).getAttribute('href');
    const id = new URL(href!, 'http://x').searchParams.get('id')!;
    const rita = await apiAs(request, 'rita');
    const detail = await rita.get<{ categoryName: string; vendorName: string; departmentName: string; status: string }>(
      `/api/requests/${id}`,
    );
    expect(detail).toMatchObject({ categoryName: 'Logistics', vendorName, departmentName });
    expect(detail.status).not.toBe('draft');
  });

  test('on a phone the suggestions stack and apply all at once', async ({ page }) => {
    await page.setViewportSize(MOBILE);
    await signInAs(page, 'rita', undefined, '/smart-form');
    await page.getByLabel(/^Title/).fill(`Laptops ${suffix()}`);
    await page.getByLabel(/^Description/).fill('Replacement laptops for new joiners');
    const panel = page.getByRole('region', { name: 'Suggestions' });
    const apply = panel.getByRole('button', { name: 'Apply top suggestions' });
    await expect(apply).toBeEnabled();
    await apply.click();
    await expect(apply).toBeDisabled();
    await expect(panel.getByRole('group', { name: 'Suggested category' }).getByRole('button').first()).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await expect(page.getByRole('combobox', { name: /^Category/ })).toContainText('Hardware');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
    await expectAccessible(page);
    await snap(page, 'smart-form-phone-applied');
  });
});
