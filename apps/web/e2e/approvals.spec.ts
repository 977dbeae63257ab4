import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import {
  DESKTOP,
  expectAccessible,
  expectInViewport,
  expectNoSidewaysScroll,
  expectToast,
  MOBILE,
  pickSearched,
  signInAs,
  snap,
  type LoginBody,
} from './fixtures';

/*
 * Approval screens beyond the plain decision flow (that one is request-flow.spec.ts): max's
 * partial approval (one line item rejected), bulk approval, and a decision someone else made
 * first (409);
 * adam builds a workflow (two steps, reordered with the keyboard, simulated, saved); carla
 * watches the approvals in flight and the cycle times; max reads why a request took its
 * route; adam keeps an (inactive) auto-approval rule. The workflow only matches amounts from
 * 500,000 and the rule is inactive, so the demo chain of the other specs is untouched.
 */

const suffix = () => Math.random().toString(36).slice(2, 8);

async function as(browser: Browser, username: string, path: string): Promise<{ page: Page; login: LoginBody }> {
  const context = await browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  const login = await signInAs(page, username, undefined, path);
  return { page, login };
}

/** rita submits through /new-request (or /advanced-request with line items); returns the reference and id. */
async function raise(
  page: Page,
  title: string,
  amount: string,
  lineItems?: [string, string][],
): Promise<{ reference: string; id: string }> {
  await page.goto(lineItems ? '/advanced-request' : '/new-request');
  await page.getByLabel(/^Title/).fill(title);
  await page.getByRole('combobox', { name: /^Category/ }).click();
  await page
    .getByRole('option', { name: /^Office Supplies/ })
    .first()
    .click();
  if (lineItems) {
    const rows = page.getByTestId('line-item-row');
    for (const [i, [description, value]] of lineItems.entries()) {
      await page.getByRole('button', { name: 'Add line item' }).click();
      await rows
        .nth(i)
        .getByLabel(/^Description/)
        .fill(description);
      await rows
        .nth(i)
        .getByLabel(/^Amount/)
        .fill(value);
    }
    await expect(page.getByLabel(/^Amount/).first()).toHaveValue(amount);
  } else {
    await page.getByLabel(/^Amount/).fill(amount);
  }
  await page.getByRole('button', { name: 'Submit for approval' }).click();
  const saved = page.getByTestId('request-saved');
  await expect(saved).toContainText('Submitted for approval');
  const reference = (await saved.textContent())?.match(/REQ-\d{6}/)?.[0] ?? '';
  const href = (await saved.getByRole('link', { name: 'Open request' }).getAttribute('href')) ?? '';
  return { reference, id: decodeURIComponent(href.split('id=')[1] ?? '') };
}

async function openFromQueue(page: Page, title: string) {
  await page.goto('/approvals');
  await page.getByRole('searchbox', { name: 'Search requests waiting for you' }).fill(title);
  const row = page.getByRole('table', { name: 'Approval queue' }).getByRole('row').filter({ hasText: title });
  await row.getByRole('button', { name: /^Open REQ-/ }).click();
  const dialog = page.getByRole('dialog', { name: new RegExp(title) });
  await expect(dialog.getByTestId('request-detail')).toBeVisible();
  return dialog;
}

async function choose(page: Page, scope: Page | Locator, field: RegExp | string, option: RegExp | string) {
  await scope.getByRole('combobox', { name: field }).click();
  await page.getByRole('option', { name: option }).first().click();
}

test.describe('workflow builder (adam)', () => {
  test('creates a two-step workflow, reorders it by keyboard, simulates and saves it', async ({ page }) => {
    const name = `Very large purchases ${suffix()}`;
    await signInAs(page, 'adam', undefined, '/workflow-customization');
    await expect(page.getByRole('heading', { name: 'Workflow Builder' })).toBeVisible();
    await expect(page.locator('[data-scaffold]')).toHaveCount(0);
    await expect(page.getByTestId('workflow-card').first()).toBeVisible();
    await expectAccessible(page);
    await snap(page, 'workflow-list');
    await page.setViewportSize(MOBILE);
    await snap(page, 'workflow-list');
    await page.setViewportSize(DESKTOP);

    await page.getByRole('button', { name: 'New workflow' }).first().click();
    const form = page.getByRole('form', { name: 'New workflow' });
    await choose(page, form, /^Organization/, 'Meridian Logistics');
    // The schema's messages at their fields.
    await form.getByRole('button', { name: 'Create workflow' }).click();
    await expect(form.getByText('Name the workflow (at least 3 characters)')).toBeVisible();

    await form.getByLabel(/^Name/).first().fill(name);
    await form.getByLabel(/^Priority/).fill('900');
    await form.getByLabel(/^Amount from/).fill('500000');

    const steps = form.getByTestId('workflow-step');
    await expect(steps).toHaveCount(1);
    await steps
      .nth(0)
      .getByLabel(/^Step name/)
      .fill('Manager approval');
    await form.getByRole('button', { name: 'Add step' }).click();
    await expect(steps).toHaveCount(2);
    await steps
      .nth(1)
      .getByLabel(/^Step name/)
      .fill('CFO sign-off');
    await choose(page, steps.nth(1), /^Role/, 'CFO');
    await steps.nth(1).getByLabel(/^SLA/).fill('24');

    // Keyboard drag and drop: Space picks the step up, ArrowUp moves it, Space drops it.
    const handle = steps.nth(1).getByRole('button', { name: /^Drag to reorder step 2/ });
    await handle.focus();
    await page.keyboard.press('Space');
    await expect(handle).toHaveAttribute('aria-pressed', 'true');
    // The step is picked up (aria-pressed) a few renders before the keyboard sensor can move it:
    // an arrow key finds no drop target until the steps' places are measured, and is then lost.
    // It announces being over its own place once they are: only then does ArrowUp move it.
    await expect(page.getByRole('status').filter({ hasText: 'CFO sign-off is over position 2 of 2' })).toBeAttached();
    await page.keyboard.press('ArrowUp');
    await expect(page.getByRole('status').filter({ hasText: 'CFO sign-off is over position 1 of 2' })).toBeAttached();
    await page.keyboard.press('Space');
    await expect(steps.nth(0).getByLabel(/^Step name/)).toHaveValue('CFO sign-off');
    await expect(steps.nth(1).getByLabel(/^Step name/)).toHaveValue('Manager approval');
    // And back with the buttons.
    await steps.nth(1).getByRole('button', { name: 'Move step 2 up' }).click();
    await expect(steps.nth(0).getByLabel(/^Step name/)).toHaveValue('Manager approval');
    await steps.nth(0).getByRole('button', { name: 'Move step 1 down' }).click();
    await expect(steps.nth(0).getByLabel(/^Step name/)).toHaveValue('CFO sign-off');

    // Simulate the unsaved draft.
    await page.getByLabel('Amount', { exact: true }).fill('600000');
    await page.getByRole('button', { name: 'Run simulation' }).click();
    const route = page.getByRole('region', { name: 'Simulated route' });
    await expect(route).toContainText(name);
    await expect(route).toContainText('CFO sign-off');
    await expect(route).toContainText('Carla Mendes');
    await expectAccessible(page);
    await snap(page, 'workflow-builder');
    await page.setViewportSize(MOBILE);
    await snap(page, 'workflow-builder');
    await page.setViewportSize(DESKTOP);

    await form.getByRole('button', { name: 'Create workflow' }).click();
    await expectToast(page, 'Workflow created');
    const card = page.getByTestId('workflow-card').filter({ hasText: name });
    await expect(card).toBeVisible();
    await expect(card).toContainText('1. CFO sign-off');
    await expect(card).toContainText('2. Manager approval');
    await expect(card).toContainText('0 in flight');
  });
});

test.describe('approvals management (carla)', () => {
  test('shows the approvals in flight with their SLA and the cycle times', async ({ page }) => {
    await signInAs(page, 'carla', undefined, '/approvals-management');
    await expect(page.getByRole('heading', { name: 'Approvals Management' })).toBeVisible();
    await expect(page.locator('[data-scaffold]')).toHaveCount(0);
    const table = page.getByRole('table', { name: 'In-flight approvals' });
    await expect(table.getByRole('row').nth(1)).toBeVisible();
    await expect(table.getByTestId('sla-badge').first()).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Cycle time per step' })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Cycle time per approver' }).getByRole('row').nth(1)).toBeVisible();
    await expectAccessible(page);
    await snap(page, 'approvals-management');
    await page.setViewportSize(MOBILE);
    await snap(page, 'approvals-management');
    await page.setViewportSize(DESKTOP);

    // Overdue only.
    await choose(page, page, 'SLA', 'Overdue');
    await expect(page).toHaveURL(/slaState=overdue/);
    const rows = table.getByRole('row');
    await expect
      .poll(
        async () =>
          (await table.getByTestId('sla-badge').allInnerTexts()).filter((badge) => badge !== 'Overdue').length,
      )
      .toBe(0);
    await choose(page, page, 'SLA', 'Any SLA state');

    // The row actions open their dialogs.
    await rows
      .nth(1)
      .getByRole('button', { name: /^Actions for REQ-/ })
      .click();
    await page.getByRole('menuitem', { name: 'Reassign…' }).click();
    const reassign = page.getByRole('dialog', { name: /^Reassign REQ-/ });
    await expect(reassign.getByRole('combobox', { name: /^Take it from/ })).toBeVisible();
    await reassign.getByRole('button', { name: 'Reassign' }).click();
    await expect(reassign.getByText('Choose who takes it over')).toBeVisible();
    await snap(page, 'approvals-reassign');
    await reassign.getByRole('button', { name: 'Cancel' }).click();

    await rows
      .nth(1)
      .getByRole('button', { name: /^Actions for REQ-/ })
      .click();
    await page.getByRole('menuitem', { name: 'Escalate…' }).click();
    const escalate = page.getByRole('alertdialog', { name: /^Escalate REQ-/ });
    await expect(escalate).toContainText('fallback approver');
    await escalate.getByRole('button', { name: 'Cancel' }).click();
  });
});

test.describe('smart approval routing', () => {
  test('max reads why a request took its route and the predicted time', async ({ page }) => {
    await signInAs(page, 'max', undefined, '/smart-approval-routing');
    await expect(page.getByRole('heading', { name: 'Smart Approval Routing' })).toBeVisible();
    await expect(page.locator('[data-scaffold]')).toHaveCount(0);
    await page.getByLabel('Find a request').fill('REQ-');
    const results = page.getByRole('list', { name: 'Matching requests' }).getByRole('button');
    await expect(results.first()).toBeVisible();
    await results.first().click();
    await expect(page).toHaveURL(/request=/);
    const explanation = page.getByTestId('route-explanation');
    await expect(explanation).toBeVisible();
    await expect(explanation.getByRole('region', { name: 'Why this route' })).toBeVisible();
    await expect(explanation.getByRole('region', { name: 'Predicted time to decision' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Out of office' })).toBeVisible();
    await expectAccessible(page);
    await snap(page, 'smart-routing');
    await page.setViewportSize(MOBILE);
    await expectNoSidewaysScroll(page);
    await snap(page, 'smart-routing');
  });

  test('adam keeps an inactive auto-approval rule', async ({ page }) => {
    const name = `Stationery under 40 ${suffix()}`;
    await signInAs(page, 'adam', undefined, '/smart-approval-routing');
    await expect(page.getByRole('heading', { name: 'Auto-approval rules' })).toBeVisible();
    await page.getByRole('button', { name: 'New rule' }).click();
    const dialog = page.getByRole('dialog', { name: 'New auto-approval rule' });
    await choose(page, dialog, /^Organization/, 'Meridian Energy');
    await dialog.getByLabel(/^Name/).fill(name);
    await dialog.getByLabel(/^Up to/).fill('40');
    await dialog.getByLabel('Active').uncheck();
    await expectAccessible(page);
    await snap(page, 'auto-approval-rule-dialog');
    await dialog.getByRole('button', { name: 'Create rule' }).click();
    await expectToast(page, 'Rule created', name);
    const row = page.getByRole('table', { name: 'Auto-approval rules' }).getByRole('row').filter({ hasText: name });
    await expect(row).toContainText('Inactive');
    await expect(row).toContainText('Meridian Energy');
    await snap(page, 'smart-routing-admin');
    // A phone: each rule a card with its actions, and nothing scrolls sideways.
    await page.setViewportSize(MOBILE);
    await expect(page.getByRole('table', { name: 'Auto-approval rules' })).toBeHidden();
    const card = page
      .getByRole('list', { name: 'Auto-approval rules' })
      .getByTestId('auto-approval-rule-card')
      .filter({ hasText: name });
    await expect(card).toContainText('Inactive');
    await expect(card).toContainText('Meridian Energy');
    await expect(card.getByRole('button', { name: `Edit ${name}` })).toBeVisible();
    await expectNoSidewaysScroll(page);
    await expectAccessible(page);
    await snap(page, 'smart-routing-admin');
    await page.setViewportSize(DESKTOP);

    // Out of office, scheduled for later (so nothing moves now), then revoked.
    await page.getByRole('button', { name: 'New delegation' }).click();
    const ooo = page.getByRole('dialog', { name: 'Out of office' });
    const delegate = ooo.getByRole('combobox', { name: /^Delegate/ });
    await pickSearched(page, delegate, 'Olivia', /Olivia Bennett/);
    await expect(delegate).toHaveValue('Olivia Bennett');
    await ooo.getByLabel(/^From/).fill('2027-03-01T09:00');
    await ooo.getByLabel(/^Until/).fill('2027-02-01T09:00');
    await ooo.getByRole('button', { name: 'Set up delegation' }).click();
    await expect(ooo.getByText('The end must be after the start')).toBeVisible();
    await ooo.getByLabel(/^Until/).fill('2027-03-10T18:00');
    await ooo.getByLabel(/^Reason/).fill('Annual leave');
    await expectAccessible(page);
    await snap(page, 'delegation-dialog');
    await ooo.getByRole('button', { name: 'Set up delegation' }).click();
    await expectToast(page, 'Delegation set up', 'Olivia Bennett approves for Adam Clarke');
    const delegations = page.getByRole('list', { name: 'Delegations' });
    const item = delegations.getByRole('listitem').filter({ hasText: 'Annual leave' });
    await expect(item).toContainText('Scheduled');
    await item.getByRole('button', { name: /^Revoke delegation/ }).click();
    await page
      .getByRole('alertdialog', { name: 'Revoke this delegation?' })
      .getByRole('button', { name: 'Revoke' })
      .click();
    await expectToast(page, 'Delegation revoked');
    await expect(item).toContainText('Revoked');
  });
});

test.describe('approvals queue (max)', () => {
  test("carla's whole queue fits a 1280 px screen: each row says its step and how long it has waited", async ({
    browser,
  }) => {
    const { page } = await as(browser, 'carla', '/approvals');
    const table = page.getByRole('table', { name: 'Approval queue' });
    await expect(table.getByRole('row').nth(1)).toContainText(/waiting \d/);
    await expect(table.getByRole('columnheader', { name: 'Waiting' })).toHaveCount(0);
    // Measured with every row's budget figures in: they are the widest part of a row.
    await expect(table.getByText('Checking the budget…')).toHaveCount(0);
    await expectNoSidewaysScroll(page);
    await snap(page, 'approvals-queue-wide');
  });

  test('approves part of a request: one line item rejected with a reason', async ({ browser }) => {
    test.setTimeout(150_000);
    const title = `Depot shelving ${suffix()}`;
    const { page: rita } = await as(browser, 'rita', '/');
    const { reference } = await raise(rita, title, '450.00', [
      ['Shelving units', '300.00'],
      ['Label printer', '150.00'],
    ]);

    const { page: max } = await as(browser, 'max', '/approvals');
    const dialog = await openFromQueue(max, title);
    await dialog.getByRole('button', { name: 'Approve', exact: true }).click();
    await dialog.getByLabel('Reject “Label printer”').check();
    await expect(dialog.getByText('Approved amount: $300.00 of $450.00')).toBeVisible();
    await dialog.getByRole('button', { name: 'Approve $300.00' }).click();
    await expect(dialog.getByText('Say why the line items are rejected (at least 3 characters)')).toBeVisible();
    await dialog.getByLabel(/^Why are these line items rejected/).fill('Printers are bought centrally');
    await expectAccessible(max);
    await snap(max, 'approvals-partial');
    // A phone: the dialog fits the screen, its title and figures inside it.
    await max.setViewportSize(MOBILE);
    await expectInViewport(max, dialog);
    await expectNoSidewaysScroll(max, '[role="dialog"]');
    await expectInViewport(max, dialog.getByRole('heading', { name: `${reference} ${title}` }));
    await expectAccessible(max);
    await snap(max, 'approvals-partial');
    await max.setViewportSize(DESKTOP);
    await dialog.getByRole('button', { name: 'Approve $300.00' }).click();
    await expectToast(max, 'Approved', `${reference} moves on to the next approval step.`);

    // dana sees the reduced amount and the rejected line.
    const { page: dana } = await as(browser, 'dana', '/approvals');
    const next = await openFromQueue(dana, title);
    await expect(next.getByTestId('request-amounts')).toContainText('Approved: $300.00');
    await expect(next.getByTestId('request-detail')).toContainText('Printers are bought centrally');
  });

  test('bulk-approves two requests, and a request decided meanwhile says so', async ({ browser }) => {
    test.setTimeout(150_000);
    const tag = suffix();
    const { page: rita } = await as(browser, 'rita', '/');
    const first = await raise(rita, `Bulk A ${tag}`, '410.00');
    const second = await raise(rita, `Bulk B ${tag}`, '420.00');
    const third = await raise(rita, `Raced ${tag}`, '430.00');

    const { page: max, login } = await as(browser, 'max', '/approvals');
    const table = max.getByRole('table', { name: 'Approval queue' });
    await max.getByRole('searchbox', { name: 'Search requests waiting for you' }).fill(tag);
    await expect(table.getByRole('row')).toHaveCount(4);
    await table.getByLabel(`Select ${first.reference} Bulk A ${tag}`).check();
    await table.getByLabel(`Select ${second.reference} Bulk B ${tag}`).check();
    await max.getByRole('button', { name: 'Approve 2 selected' }).click();
    const confirm = max.getByRole('alertdialog', { name: 'Approve 2 requests?' });
    await expect(confirm).toContainText(first.reference);
    await expect(confirm).toContainText(second.reference);
    await expectAccessible(max);
    await snap(max, 'approvals-bulk');
    await confirm.getByRole('button', { name: 'Approve all' }).click();
    await expectToast(max, '2 approved');
    await expect(table.getByRole('row').filter({ hasText: 'Bulk' })).toHaveCount(0);

    // Someone (here max himself, in another tab) rejects while the dialog is open: the click answers 409.
    const dialog = await openFromQueue(max, `Raced ${tag}`);
    const res = await max.request.post(`/api/approvals/${third.id}/decide`, {
      headers: { Authorization: `Bearer ${login.tokens!.accessToken}`, 'X-Device-ID': login.deviceId! },
      data: { decision: 'rejected', reason: 'Duplicate of an earlier order' },
    });
    expect(res.status()).toBe(200);
    await dialog.getByRole('button', { name: 'Approve', exact: true }).click();
    await dialog.getByRole('button', { name: `Approve ${third.reference}` }).click();
    await expectToast(max, 'Already decided', 'This request is rejected and cannot be approved');
    await expect(dialog).toBeHidden();
    await expect(table.getByRole('row').filter({ hasText: `Raced ${tag}` })).toHaveCount(0);
  });
});
