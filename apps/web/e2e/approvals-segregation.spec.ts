import { expect, test } from '@playwright/test';
import { apiAs, apiLogin, DESKTOP, expectAccessible, MOBILE, pageAs, snap } from './fixtures';

/*
 * Segregation of duties: max approves step 1 of a request, then the step-2 approver is away
 * with max as their delegate. max's queue lists the item as not his to decide, with the
 * reason, and the dialog's decision buttons are disabled. The data is this spec's own: a
 * workflow that only matches 432.19, and lukas (no other spec uses him) as the one away, so
 * no other spec's queue changes while the delegation runs. The workflow stays (it matches
 * nothing else); the delegation is revoked.
 */

const suffix = () => Math.random().toString(36).slice(2, 8);
const AMOUNT = '432.19';

test('max sees an item he may not decide in his queue, with the reason and disabled buttons', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const tag = suffix();
  const title = `Forklift service ${tag}`;
  const adam = await apiAs(request, 'adam');
  const rita = await apiAs(request, 'rita');
  const idOf = async (username: string) =>
    ((await adam.get(`/api/users?q=${username}`)) as { items: { id: string; username: string }[] }).items.find(
      (u) => u.username === username,
    )!.id;
  const [maxId, lukasId, felixId] = [await idOf('max'), await idOf('lukas'), await idOf('felix')];
  const options = (await rita.get('/api/requests/options')) as {
    categories: { id: string; name: string }[];
    organization: { id: string };
  };
  const category = options.categories.find((c) => c.name.startsWith('Office Supplies')) ?? options.categories[0]!;

  await adam.post('/api/workflows', {
    organizationId: options.organization.id,
    name: `Segregation check ${tag}`,
    priority: 0,
    active: true,
    conditions: { minAmount: AMOUNT, maxAmount: AMOUNT },
    steps: [
      { name: 'Max first', approverKind: 'user', approverUserId: maxId, slaHours: 48 },
      { name: 'Lukas second', approverKind: 'user', approverUserId: lukasId, fallbackUserId: felixId, slaHours: 48 },
    ],
  });
  const delegation = (await adam.post('/api/delegations', {
    delegatorId: lukasId,
    delegateId: maxId,
    startsAt: new Date(Date.now() - 60_000).toISOString(),
    endsAt: new Date(Date.now() + 3_600_000).toISOString(),
    reason: 'Site visit',
  })) as { id: string };
  try {
    const draft = (await rita.post('/api/requests', {
      title,
      amount: AMOUNT,
      currency: 'USD',
      categoryId: category.id,
    })) as { id: string; reference: string };
    await rita.post(`/api/requests/${draft.id}/submit`, {}, { 'idempotency-key': crypto.randomUUID() });
    const max = await apiAs(request, 'max');
    expect(
      ((await max.post(`/api/approvals/${draft.id}/decide`, { decision: 'approved' })) as { currentStep: number })
        .currentStep,
    ).toBe(2);

    const page = await pageAs(browser, 'max', '/approvals');
    await page.getByRole('searchbox', { name: 'Search requests waiting for you' }).fill(tag);
    const table = page.getByRole('table', { name: 'Approval queue' });
    const row = table.getByRole('row').filter({ hasText: title });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('on behalf of Lukas Becker');
    await expect(row.getByTestId('not-decidable')).toContainText(
      'You already decided step 1 of this request; another approver must decide this step.',
    );
    await expectAccessible(page);
    await snap(page, 'approvals-segregation-queue');

    await row.getByRole('button', { name: `Open ${draft.reference} ${title}` }).click();
    const dialog = page.getByRole('dialog', { name: new RegExp(title) });
    await expect(dialog.getByTestId('request-detail')).toBeVisible();
    await expect(dialog.getByTestId('decision-blocked')).toContainText('You already decided step 1 of this request');
    for (const name of ['Approve', 'Reject', 'Request information'])
      await expect(dialog.getByRole('button', { name, exact: true })).toBeDisabled();
    await expectAccessible(page);
    await snap(page, 'approvals-segregation-dialog');
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();

    await page.setViewportSize(MOBILE);
    const card = page.getByTestId('approval-card').filter({ hasText: title });
    await expect(card.getByTestId('not-decidable')).toBeVisible();
    await snap(page, 'approvals-segregation-queue');
    await card.getByRole('button', { name: `Open ${draft.reference} ${title}` }).click();
    await expect(dialog.getByRole('button', { name: 'Approve', exact: true })).toBeDisabled();
    await snap(page, 'approvals-segregation-dialog');
    await page.setViewportSize(DESKTOP);

    // Someone who may decide it has it: lukas keeps it, and felix (the step's fallback) stands in.
    const inFlight = (await adam.get(`/api/approvals/in-flight?q=${tag}`)) as {
      items: { requestId: string; approvers: { name: string }[] }[];
    };
    expect(inFlight.items.map((i) => [i.requestId, i.approvers.map((a) => a.name).sort()])).toEqual([
      [draft.id, ['Felix Wagner', 'Lukas Becker']],
    ]);
  } finally {
    const login = await apiLogin(request, 'adam');
    const res = await request.delete(`/api/delegations/${delegation.id}`, {
      headers: { Authorization: `Bearer ${login.tokens!.accessToken}`, 'X-Device-ID': login.deviceId! },
    });
    expect(res.ok(), await res.text()).toBe(true);
  }
});
