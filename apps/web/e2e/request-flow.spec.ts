import { expect, test, type Browser, type Page } from '@playwright/test';
import { DESKTOP, expectAccessible, expectToast, MOBILE, signInAs, snap } from './fixtures';

/*
 * The demo chain end to end, in the browser, with the demo chain of Meridian Logistics:
 * rita raises a request with a receipt → max (manager) approves → dana (department head)
 * approves → carla (cfo) marks it paid → rita reads the whole timeline. Then a rejection with
 * a reason, and a question answered by rita that goes back to max. Every person has their own
 * browser context. Titles carry a random suffix: the seeded history also fills max's queue.
 */

// A 1×1 red PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);
const suffix = () => Math.random().toString(36).slice(2, 8);

async function as(browser: Browser, username: string, path: string): Promise<Page> {
  const context = await browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  await signInAs(page, username, undefined, path);
  return page;
}

async function choose(page: Page, field: RegExp | string, option: RegExp | string) {
  await page.getByRole('combobox', { name: field }).click();
  await page.getByRole('option', { name: option }).first().click();
}

/** rita: /new-request → submitted; returns the reference. */
async function raiseRequest(page: Page, title: string, amount: string, receipt = false): Promise<string> {
  await page.goto('/new-request');
  await page.getByLabel(/^Title/).fill(title);
  await page.getByLabel(/^Description/).fill('Packing material for the Long Beach depot.');
  await page.getByLabel(/^Amount/).fill(amount);
  await choose(page, /^Category/, /^Office Supplies/);
  await page.getByLabel(/^Justification/).fill('The depot ran out of packaging.');
  if (receipt) {
    await page
      .getByTestId('attachment-input')
      .setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: PNG });
    await expect(page.getByRole('list', { name: 'Files to upload' })).toContainText('receipt.png');
  }
  await page.getByRole('button', { name: 'Submit for approval' }).click();
  const saved = page.getByTestId('request-saved');
  await expect(saved).toContainText('Submitted for approval');
  await expect(saved).toContainText(title);
  if (receipt) await expect(saved.getByTestId('attachment-thumbnail')).toBeVisible();
  const reference = (await saved.textContent())?.match(/REQ-\d{6}/)?.[0];
  expect(reference, 'the saved card names the reference').toBeTruthy();
  return reference!;
}

/** An approver's queue row for this title (the search narrows the queue to it). */
async function queueRow(page: Page, title: string) {
  await page.goto('/approvals');
  await expect(page.getByRole('heading', { name: 'Approvals' })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search requests waiting for you' }).fill(title);
  const row = page.getByRole('table', { name: 'Approval queue' }).getByRole('row').filter({ hasText: title });
  await expect(row).toHaveCount(1);
  return row;
}

async function openItem(page: Page, title: string) {
  const row = await queueRow(page, title);
  await row.getByRole('button', { name: /^Open REQ-/ }).click();
  const dialog = page.getByRole('dialog', { name: new RegExp(title) });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('request-detail')).toBeVisible();
  return dialog;
}

async function approve(page: Page, title: string, reference: string) {
  const dialog = await openItem(page, title);
  await dialog.getByRole('button', { name: 'Approve', exact: true }).click();
  await dialog.getByRole('button', { name: `Approve ${reference}` }).click();
  await expectToast(page, 'Approved');
  await expect(dialog).toBeHidden();
  await expect(
    page.getByRole('table', { name: 'Approval queue' }).getByRole('row').filter({ hasText: title }),
  ).toHaveCount(0);
}

/** rita: /requests, the request opened in its sheet. */
async function openMine(page: Page, title: string) {
  await page.goto('/requests');
  await page.getByRole('searchbox').fill(title);
  const row = page.getByRole('table', { name: 'My requests' }).getByRole('row').filter({ hasText: title });
  await expect(row).toHaveCount(1);
  await row.click();
  const detail = page.getByTestId('request-detail');
  await expect(detail.getByRole('heading', { name: title })).toBeVisible();
  return detail;
}

test.describe('request → approvals → payment (the demo chain)', () => {
  test('rita raises a request with a receipt; max and dana approve; carla pays; rita sees the timeline', async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const title = `Pallet wrap ${suffix()}`;

    const rita = await as(browser, 'rita', '/new-request');
    await expect(rita.getByRole('heading', { name: 'New Request' })).toBeVisible();
    const reference = await raiseRequest(rita, title, '245.80', true);
    await snap(rita, 'flow-1-submitted');

    // max: the queue shows it at step 1, with amount and SLA; the item opens with its history.
    const max = await as(browser, 'max', '/approvals');
    const row = await queueRow(max, title);
    await expect(row).toContainText(reference);
    await expect(row).toContainText('Rita Alvarez');
    await expect(row).toContainText('245.80');
    await expect(row).toContainText(/1 of \d/);
    await expect(row.getByTestId('sla-badge')).toHaveText('On track');
    await max.getByRole('searchbox', { name: 'Search requests waiting for you' }).fill('');
    await expect(max.getByRole('table', { name: 'Approval queue' }).getByRole('row').nth(2)).toBeVisible();
    await expectAccessible(max);
    await snap(max, 'approvals-queue');
    await max.setViewportSize(MOBILE);
    await snap(max, 'approvals-queue');
    await max.setViewportSize(DESKTOP);

    const dialog = await openItem(max, title);
    await expect(dialog).toContainText('Step 1 of');
    await expect(dialog.getByTestId('request-detail')).toContainText('receipt.png');
    await dialog.getByRole('button', { name: 'Approve', exact: true }).click();
    await expectAccessible(max);
    await snap(max, 'approvals-item');
    await max.setViewportSize(MOBILE);
    await snap(max, 'approvals-item');
    await max.setViewportSize(DESKTOP);
    await dialog.getByRole('button', { name: `Approve ${reference}` }).click();
    await expectToast(max, 'Approved', `${reference} moves on to the next approval step.`);
    await expect(dialog).toBeHidden();

    // dana: step 2.
    const dana = await as(browser, 'dana', '/approvals');
    const danaRow = await queueRow(dana, title);
    await expect(danaRow).toContainText(/2 of 2/);
    await approve(dana, title, reference);

    // carla: marks it paid from the requests in her scope.
    const carla = await as(browser, 'carla', '/requests-management');
    await carla.getByRole('searchbox').fill(title);
    const paidRow = carla.getByRole('table', { name: 'Requests' }).getByRole('row').filter({ hasText: title });
    await expect(paidRow).toContainText('Approved');
    await paidRow.getByRole('button', { name: `Actions for ${reference}` }).click();
    await carla.getByRole('menuitem', { name: 'Mark paid' }).click();
    const pay = carla.getByRole('dialog', { name: `Mark ${reference} paid` });
    await expect(pay.getByLabel(/^Payment date/)).not.toHaveValue('');
    await pay.getByLabel(/^Payment reference/).fill(`TRX-${suffix().toUpperCase()}`);
    await pay.getByRole('button', { name: 'Mark paid' }).click();
    await expect(pay).toBeHidden();
    await expect(paidRow).toContainText('Paid');

    // rita: the timeline tells the whole story.
    const detail = await openMine(rita, title);
    await expect(detail.getByTestId('request-status')).toHaveText('Paid');
    await detail.getByRole('tab', { name: 'Timeline' }).click();
    const timeline = detail.getByRole('list', { name: 'Timeline' });
    await expect(timeline).toContainText('Submitted for approval');
    await expect(timeline.getByRole('listitem').filter({ hasText: 'Max Fischer' }).first()).toContainText(/Approved/);
    await expect(timeline.getByRole('listitem').filter({ hasText: 'Dana Kim' }).first()).toContainText(/approved/i);
    await expect(timeline.getByRole('listitem').filter({ hasText: 'Marked paid' })).toContainText('Carla Mendes');
    await expectAccessible(rita);
    await snap(rita, 'flow-1-timeline');
    await rita.setViewportSize(MOBILE);
    await snap(rita, 'flow-1-timeline');
  });

  test('max rejects with a reason and rita reads it', async ({ browser }) => {
    const title = `Desk lamps ${suffix()}`;
    const rita = await as(browser, 'rita', '/new-request');
    const reference = await raiseRequest(rita, title, '389.90');

    const max = await as(browser, 'max', '/approvals');
    const dialog = await openItem(max, title);
    await dialog.getByRole('button', { name: 'Reject', exact: true }).click();
    await dialog.getByRole('button', { name: `Reject ${reference}` }).click();
    await expect(dialog.getByText('Give a reason for the rejection (at least 3 characters)')).toBeVisible();
    await expectAccessible(max);
    await snap(max, 'approvals-reject');
    await dialog.getByLabel(/^Reason for rejection/).fill('Lamps come from the facilities budget');
    await dialog.getByRole('button', { name: `Reject ${reference}` }).click();
    await expectToast(max, 'Rejected');
    await expect(dialog).toBeHidden();
    await expect(
      max.getByRole('table', { name: 'Approval queue' }).getByRole('row').filter({ hasText: title }),
    ).toHaveCount(0);

    const detail = await openMine(rita, title);
    await expect(detail.getByTestId('request-status')).toHaveText('Rejected');
    await expect(detail).toContainText('Rejected: Lamps come from the facilities budget');
    await snap(rita, 'flow-2-rejected');
  });

  test('max asks for information, rita answers, the request returns to max who approves', async ({ browser }) => {
    const title = `Forklift battery ${suffix()}`;
    const rita = await as(browser, 'rita', '/new-request');
    const reference = await raiseRequest(rita, title, '312.00');

    const max = await as(browser, 'max', '/approvals');
    let dialog = await openItem(max, title);
    await dialog.getByRole('button', { name: 'Request information' }).click();
    await dialog.getByRole('button', { name: 'Send question' }).click();
    await expect(dialog.getByText('Say what information you need (at least 3 characters)')).toBeVisible();
    await dialog.getByLabel(/^What do you need to know/).fill('Which forklift is this for?');
    await dialog.getByRole('button', { name: 'Send question' }).click();
    await expectToast(max, 'Information requested');
    await expect(dialog).toBeHidden();

    const detail = await openMine(rita, title);
    await expect(detail).toContainText('Information requested: Which forklift is this for?');
    await detail.getByRole('button', { name: 'Answer and resubmit' }).click();
    const answer = rita.getByRole('dialog', { name: 'Answer and resubmit' });
    await answer.getByLabel(/^Your answer/).fill('Forklift 3 in the Long Beach depot.');
    await answer.getByRole('button', { name: 'Send answer' }).click();
    await expect(answer).toBeHidden();
    await expect(detail.getByTestId('request-status')).toHaveText('Pending approval');

    dialog = await openItem(max, title);
    await dialog.getByRole('tab', { name: /Comments/ }).click();
    await expect(dialog.getByTestId('request-detail')).toContainText('Forklift 3 in the Long Beach depot.');
    await dialog.getByRole('button', { name: 'Approve', exact: true }).click();
    await dialog.getByRole('button', { name: `Approve ${reference}` }).click();
    await expectToast(max, 'Approved');
    await expect(dialog).toBeHidden();
  });
});
