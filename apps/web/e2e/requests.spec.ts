import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiLogin, DESKTOP, expectAccessible, expectToast, MOBILE, signInAs, snap } from './fixtures';

/*
 * Spending-request screens: rita raises a draft with a PNG receipt (/new-request) and finds it
 * with its thumbnail on /requests; an advanced request with two line items and a 60/40
 * allocation (and the "≠ 100%" message); carla filters and exports /requests-management.
 * The approve / pay flow lives in the approvals spec. Titles carry a random suffix because the
 * spec files share one server.
 */

// A 1×1 red PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);
const suffix = () => Math.random().toString(36).slice(2, 8);

async function choose(page: Page, field: RegExp | string, option: RegExp | string) {
  await page.getByRole('combobox', { name: field }).click();
  await page.getByRole('option', { name: option }).first().click();
}

test.describe('spending requests (rita)', () => {
  test('creates a draft with a PNG receipt and sees it with its thumbnail on My Requests', async ({ page }) => {
    const title = `Courier boxes ${suffix()}`;
    await signInAs(page, 'rita', undefined, '/new-request');
    await expect(page.getByRole('heading', { name: 'New Request' })).toBeVisible();
    await expect(page.locator('[data-scaffold]')).toHaveCount(0);

    // Nothing filled: the schema's messages at the fields.
    await page.getByRole('button', { name: 'Save as draft' }).click();
    await expect(page.getByText('The title must be at least 3 characters')).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: 'Choose a category' })).toBeVisible();

    await page.getByLabel(/^Title/).fill(title);
    await page.getByLabel(/^Description/).fill('Boxes and tape for the Long Beach depot.');
    await page.getByLabel(/^Amount/).fill('1,234.50');
    await choose(page, /^Currency/, 'EUR');
    await expect(page.getByTestId('fx-preview')).toContainText(/≈ .*USD at \d+\.\d+/);
    await choose(page, /^Category/, /^Office Supplies/);
    await page.getByLabel(/^Justification/).fill('The depot ran out of packaging.');

    // The vendor combobox searches; blocked vendors are shown but cannot be chosen.
    const vendor = page.getByRole('combobox', { name: 'Vendor' });
    await vendor.fill('Pallet');
    const blocked = page.getByRole('option', { name: /Pallet Pro Ltd/ });
    await expect(blocked).toHaveAttribute('aria-disabled', 'true');
    await expect(blocked).toContainText('Blocked');
    await vendor.fill('Harbor');
    await page.getByRole('option', { name: /Harbor Fuel Supply/ }).click();
    await expect(vendor).toHaveValue('Harbor Fuel Supply');

    // A text file is refused before upload; the PNG is kept for after the draft exists.
    const input = page.getByTestId('attachment-input');
    await input.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    await expect(page.getByText('Only images (JPEG, PNG, WebP, GIF) and PDF files can be attached')).toBeVisible();
    await input.setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: PNG });
    await expect(page.getByRole('list', { name: 'Files to upload' })).toContainText('receipt.png');

    await expectAccessible(page);
    await snap(page, 'new-request');
    await page.setViewportSize(MOBILE);
    await snap(page, 'new-request');
    await page.setViewportSize(DESKTOP);

    await page.getByRole('button', { name: 'Save as draft' }).click();
    const saved = page.getByTestId('request-saved');
    await expect(saved).toContainText('Draft saved');
    await expect(saved).toContainText(title);
    await expect(saved.getByTestId('request-status')).toHaveText('Draft');
    await expect(saved.getByTestId('attachment-thumbnail')).toBeVisible();

    await page.getByRole('link', { name: 'Open request' }).click();
    await expect(page).toHaveURL(/\/requests\?id=/);
    const detail = page.getByTestId('request-detail');
    await expect(detail.getByRole('heading', { name: title })).toBeVisible();
    await expect(detail).toContainText('Harbor Fuel Supply');
    await expect(detail.getByTestId('request-amounts')).toContainText('1,234.50');
    const thumb = detail.getByTestId('attachment-thumbnail');
    await expect(thumb).toBeVisible();
    expect(await thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await expect(detail.getByRole('button', { name: 'Submit for approval' })).toBeVisible();
    await expect(detail.getByRole('link', { name: 'Edit' })).toBeVisible();
    await expectAccessible(page);
    await snap(page, 'request-detail');
    await page.setViewportSize(MOBILE);
    await snap(page, 'request-detail');
    await page.setViewportSize(DESKTOP);

    // A comment from the detail.
    await detail.getByLabel('Add a comment').fill('Receipt attached.');
    await detail.getByRole('button', { name: 'Comment' }).click();
    await expect(detail.getByRole('list', { name: 'Comments' })).toContainText('Receipt attached.');

    await page.getByRole('button', { name: 'Close' }).click();
    const table = page.getByRole('table', { name: 'My requests' });
    await page.getByRole('searchbox').fill(title);
    const row = table.getByRole('row').filter({ hasText: title });
    await expect(row).toContainText('Draft');
    await snap(page, 'my-requests');
    await page.setViewportSize(MOBILE);
    await snap(page, 'my-requests');
    await page.setViewportSize(DESKTOP);

    // Edit: the same form, filled with the draft.
    await row.click();
    await page.getByTestId('request-detail').getByRole('link', { name: 'Edit' }).click();
    await expect(page).toHaveURL(/\/new-request\?edit=/);
    await expect(page.getByLabel(/^Title/)).toHaveValue(title);
    await expect(page.getByText('Already attached')).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Vendor' })).toHaveValue('Harbor Fuel Supply');
    await page.getByLabel(/^Title/).fill(`${title} (edited)`);
    await page.getByRole('button', { name: 'Save as draft' }).click();
    await expect(page.getByTestId('request-saved')).toContainText(`${title} (edited)`);

    // Submitting the edited draft says so and who decides next, as a new request does.
    await page.reload();
    await expect(page.getByLabel(/^Title/)).toHaveValue(`${title} (edited)`);
    await page.getByRole('button', { name: 'Submit for approval' }).click();
    const submitted = page.getByTestId('request-saved');
    await expect(submitted.getByRole('heading', { name: 'Submitted for approval' })).toBeVisible();
    await expect(submitted).toContainText(/Next: .+/);
    await expect(page.getByText('can no longer be edited')).toHaveCount(0);
    await snap(page, 'request-edited-submitted');
  });

  test('an advanced request with two line items and a 60/40 allocation', async ({ page }) => {
    const title = `Depot refit ${suffix()}`;
    await signInAs(page, 'rita', undefined, '/advanced-request');
    await expect(page.getByRole('heading', { name: 'Advanced Request' })).toBeVisible();
    await expect(page.locator('[data-scaffold]')).toHaveCount(0);
    await page.getByLabel(/^Title/).fill(title);
    await choose(page, /^Category/, /^Office Supplies/);

    await page.getByRole('button', { name: 'Add line item' }).click();
    await page.getByRole('button', { name: 'Add line item' }).click();
    const rows = page.getByTestId('line-item-row');
    await rows
      .nth(0)
      .getByLabel(/^Description/)
      .fill('Shelving units');
    await rows
      .nth(0)
      .getByLabel(/^Amount/)
      .fill('400.10');
    await rows.nth(0).getByLabel(/^Tax/).fill('32.01');
    await rows
      .nth(1)
      .getByLabel(/^Description/)
      .fill('Labels printer');
    await rows
      .nth(1)
      .getByLabel(/^Amount/)
      .fill('199.99');
    await expect(page.getByTestId('line-items-total')).toContainText('632.10');
    await expect(page.getByLabel(/^Amount/).first()).toHaveValue('632.10');

    await page.getByRole('button', { name: 'Add department' }).click();
    const allocations = page.getByTestId('allocation-row');
    await allocations.nth(0).getByLabel('Share (%)').fill('60');
    await page.getByRole('button', { name: 'Add department' }).click();
    await expect(allocations.nth(1).getByLabel('Share (%)')).toHaveValue('40');
    await allocations.nth(1).getByLabel('Share (%)').fill('30');
    await expect(page.getByTestId('allocation-sum')).toHaveText('Sums to 90% — 10% left');

    await page.getByRole('button', { name: 'Submit for approval' }).click();
    await expect(page.getByText('Allocations must add up to 100% (now 90.00%)')).toBeVisible();
    await expectAccessible(page);
    await snap(page, 'advanced-request-invalid');
    await page.setViewportSize(MOBILE);
    await snap(page, 'advanced-request-invalid');
    await page.setViewportSize(DESKTOP);

    await allocations.nth(1).getByLabel('Share (%)').fill('40');
    await expect(page.getByTestId('allocation-sum')).toHaveText('Sums to 100%');
    await expect(page.getByText('Allocations must add up to 100% (now 90.00%)')).toHaveCount(0);

    await page.getByRole('button', { name: 'Submit for approval' }).click();
    const saved = page.getByTestId('request-saved');
    await expect(saved).toContainText('Submitted for approval');
    await expect(saved.getByTestId('request-status')).toHaveText('Pending approval');
    await expect(saved).toContainText('Next:');
    await snap(page, 'advanced-request-submitted');

    await page.getByRole('link', { name: 'Open request' }).click();
    const detail = page.getByTestId('request-detail');
    await expect(detail.getByRole('table', { name: 'Line items' })).toContainText('Shelving units');
    await expect(detail.getByRole('table', { name: 'Line items' })).toContainText('Labels printer');
    await expect(detail.getByRole('list', { name: 'Cost allocation' })).toContainText('60');
    await expect(detail.getByRole('list', { name: 'Cost allocation' })).toContainText('40');
    await expect(detail.getByRole('list', { name: 'Approval route' })).toBeVisible();
    await expect(detail.getByRole('button', { name: 'Cancel request' })).toBeVisible();
    await expectAccessible(page);
    await snap(page, 'request-detail-pending');
    await page.setViewportSize(MOBILE);
    await snap(page, 'request-detail-pending');
  });
});

async function authHeaders(request: APIRequestContext, username: string) {
  const body = await apiLogin(request, username);
  return { Authorization: `Bearer ${body.tokens!.accessToken}`, 'X-Device-ID': body.deviceId! };
}

test.describe('information requested (rita answers from the detail)', () => {
  test('answers the approver, then cancels with a confirmation', async ({ page }) => {
    const title = `Depot keys ${suffix()}`;
    const rita = await authHeaders(page.request, 'rita');
    const options = (await (await page.request.get('/api/requests/options', { headers: rita })).json()) as {
      categories: { id: string }[];
    };
    const created = await page.request.post('/api/requests', {
      headers: { ...rita, 'Idempotency-Key': crypto.randomUUID() },
      data: { title, amount: '85.00', currency: 'USD', categoryId: options.categories[0]!.id },
    });
    expect(created.status(), await created.text()).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const submitted = await page.request.post(`/api/requests/${id}/submit`, {
      headers: { ...rita, 'Idempotency-Key': crypto.randomUUID() },
      data: {},
    });
    expect(submitted.ok(), await submitted.text()).toBe(true);
    const max = await authHeaders(page.request, 'max');
    const asked = await page.request.post(`/api/approvals/${id}/decide`, {
      headers: max,
      data: { decision: 'info_requested', reason: 'Which depot are the keys for?' },
    });
    expect(asked.ok(), await asked.text()).toBe(true);

    // The link a notification carries.
    await signInAs(page, 'rita', undefined, `/requests?id=${id}`);
    const detail = page.getByTestId('request-detail');
    await expect(detail.getByTestId('request-status')).toHaveText('Information requested');
    await expect(detail).toContainText('Which depot are the keys for?');
    await expect(detail.getByRole('link', { name: 'Edit' })).toHaveAttribute('href', `/new-request?edit=${id}`);
    await detail.getByRole('button', { name: 'Answer and resubmit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Answer and resubmit' });
    await dialog.getByRole('button', { name: 'Send answer' }).click();
    await expect(dialog.getByText('Answer the question (at least 2 characters)')).toBeVisible();
    await dialog.getByLabel(/^Your answer/).fill('Long Beach, gate 3.');
    await expectAccessible(page);
    await snap(page, 'request-respond-dialog');
    await dialog.getByRole('button', { name: 'Send answer' }).click();
    await expectToast(page, 'Answer sent');
    await expect(detail.getByTestId('request-status')).toHaveText('Pending approval');
    await expect(detail.getByRole('list', { name: 'Comments' })).toContainText('Long Beach, gate 3.');

    await detail.getByRole('button', { name: 'Cancel request' }).click();
    const confirm = page.getByRole('alertdialog', { name: /^Cancel REQ-/ });
    await confirm.getByLabel(/^Reason/).fill('Keys found in the office.');
    await confirm.getByRole('button', { name: 'Cancel request' }).click();
    await expect(detail.getByTestId('request-status')).toHaveText('Cancelled');
    await expect(detail.getByRole('button', { name: 'Cancel request' })).toHaveCount(0);
    await detail.getByRole('tab', { name: 'Timeline' }).click();
    await expect(detail.getByRole('list', { name: 'Timeline' })).toContainText('Cancelled the request');
  });
});

test.describe('requests management (carla)', () => {
  test('filters the requests in scope and exports them', async ({ page }) => {
    await signInAs(page, 'carla', undefined, '/requests-management');
    await expect(page.getByRole('heading', { name: 'Requests Management' })).toBeVisible();
    await expect(page.locator('[data-scaffold]')).toHaveCount(0);
    const table = page.getByRole('table', { name: 'Requests' });
    await expect(table.getByRole('row').nth(1)).toBeVisible();
    await expectAccessible(page);
    await snap(page, 'requests-management');
    await page.setViewportSize(MOBILE);
    await snap(page, 'requests-management');
    await page.setViewportSize(DESKTOP);

    await choose(page, 'Status', 'Approved');
    await expect(page).toHaveURL(/status=approved/);
    const rows = table.getByRole('row');
    await expect(rows.nth(1)).toBeVisible();
    // The URL changes before the filtered page arrives: wait for the list itself to agree.
    await expect
      .poll(async () => (await rows.allInnerTexts()).slice(1).filter((text) => !text.includes('Approved')).length)
      .toBe(0);

    await page.getByLabel(/^Min amount/).fill('100');
    await page.getByLabel(/^Min amount/).press('Enter');
    await expect(page).toHaveURL(/minAmount=100/);

    const csv = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    expect((await csv).suggestedFilename()).toMatch(/\.csv$/);
    const xlsx = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export Excel' }).click();
    expect((await xlsx).suggestedFilename()).toMatch(/\.xlsx$/);

    // A row opens the full request; approved ones can be marked paid from the row menu.
    const first = rows.nth(1);
    await first.getByRole('button', { name: /^Actions for REQ-/ }).click();
    await expect(page.getByRole('menuitem', { name: 'Mark paid' })).toBeVisible();
    await page.getByRole('menuitem', { name: 'Mark paid' }).click();
    const dialog = page.getByRole('dialog', { name: /^Mark REQ-\d+ paid/ });
    await expect(dialog.getByLabel(/^Payment date/)).not.toHaveValue('');
    await snap(page, 'requests-pay-dialog');
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await first.click();
    await expect(page.getByTestId('request-detail')).toBeVisible();
    await expect(page.getByTestId('request-detail').getByTestId('request-status')).toHaveText('Approved');
    await expectAccessible(page);
    await snap(page, 'requests-management-detail');
  });
});
