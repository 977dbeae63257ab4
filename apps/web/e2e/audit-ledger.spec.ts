// The audit history reads like a ledger: a request by its reference, the decision in words with
// the step the request itself shows, and before and after values formatted (money with currency).
import { expect, test, type Browser, type Page } from '@playwright/test';
import { apiAs, DESKTOP, expectAccessible, MOBILE, signInAs, snap } from './fixtures';

async function as(browser: Browser, username: string, path: string, viewport = DESKTOP): Promise<Page> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await signInAs(page, username, undefined, path);
  return page;
}

test('a decision on a request reads as a ledger line, on the desktop and the phone', async ({ browser, request }) => {
  const rita = await apiAs(request, 'rita');
  const options = (await rita.get('/api/requests/options')) as {
    categories: { id: string; name: string }[];
    organization: { currency: string };
  };
  const category = options.categories.find((c) => c.name.startsWith('Office Supplies')) ?? options.categories[0]!;
  const title = `Ledger check ${Date.now()}`;
  const draft = (await rita.post('/api/requests', {
    title,
    amount: '1234.50',
    currency: options.organization.currency,
    categoryId: category.id,
  })) as { id: string; reference: string };
  await rita.post(`/api/requests/${draft.id}/submit`, {}, { 'idempotency-key': crypto.randomUUID() });
  const detail = (await rita.get(`/api/requests/${draft.id}`)) as {
    currentStep: number | null;
    steps: { position: number; status: string; approvers?: unknown }[];
  };
  const active = detail.steps.find((s) => s.status === 'active')!;
  const total = detail.steps.length;

  // The step's approver decides (the requester's manager on the standard route).
  await (await apiAs(request, 'max')).post(`/api/approvals/${draft.id}/decide`, { decision: 'approved' });

  const adam = await as(browser, 'adam', `/audit-history?entityId=${draft.id}`);
  const table = adam.getByRole('table', { name: 'Audit events' });
  const decided = table.getByRole('row', { name: new RegExp(`Approved step ${active.position} of ${total}`) });
  await expect(decided).toBeVisible();
  await expect(decided).toContainText(draft.reference);
  await expect(decided).toContainText('Max Fischer');
  await expect(table.getByRole('row', { name: /Submitted/ })).toContainText(draft.reference);
  await expect(table).not.toContainText('undefined');
  await expectAccessible(adam);
  await snap(adam, 'audit-ledger');

  // The event itself: its record and action as the title, the changed fields before and after.
  await decided.click();
  const dialog = adam.getByRole('dialog');
  await expect(
    dialog.getByRole('heading', { name: `${draft.reference}: Approved step ${active.position} of ${total}` }),
  ).toBeVisible();
  await expect(dialog.getByRole('row', { name: /Step/ })).toContainText(String(active.position));
  await snap(adam, 'audit-ledger-event');

  // The created event carries the amount with its currency.
  await adam.keyboard.press('Escape');
  await adam.goto(`/audit-history?entityId=${draft.id}&action=request.created`);
  await expect(adam.getByRole('table', { name: 'Audit events' })).toContainText('Created');

  const phone = await as(browser, 'adam', `/audit-history?entityId=${draft.id}`, MOBILE);
  await expect(phone.getByText(`Approved step ${active.position} of ${total}`).first()).toBeVisible();
  await expect(phone.getByText(new RegExp(`${draft.reference}`)).first()).toBeVisible();
  const width = await phone.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(MOBILE.width);
  await snap(phone, 'audit-ledger');
});
