import { expect, test, type APIRequestContext, type Browser, type Locator, type Page } from '@playwright/test';
import { apiLogin, DESKTOP, expectAccessible, expectToast, MOBILE, pickSearched, signInAs, snap } from './fixtures';

/*
 * Managing approvals in flight (docs/product.md §3.4 "Approvals and workflows"): carla (cfo,
 * approvals.manage) reassigns max's item to felix, who then finds it in his queue; carla
 * escalates a step (the Line manager step's fallback, dana, gets it); adam re-routes a pending
 * request; carla reassigns from /requests-management too. max works his queue on a phone
 * (cards, not a sideways-scrolling table). A monthly request's occurrence links to its template.
 *
 * rita raises every request through the API (Standard approval in Meridian Logistics:
 * Line manager max → Department head dana). Titles carry a random tag: the seeded history and
 * the other specs fill the same queues.
 */

const suffix = () => Math.random().toString(36).slice(2, 8);
const isoDay = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

type Api = {
  get: (url: string) => Promise<unknown>;
  post: (url: string, data?: unknown, headers?: Record<string, string>) => Promise<unknown>;
};

async function apiAs(request: APIRequestContext, username: string): Promise<Api> {
  const login = await apiLogin(request, username);
  const headers = { Authorization: `Bearer ${login.tokens!.accessToken}`, 'X-Device-ID': login.deviceId! };
  const check = async (what: string, res: Awaited<ReturnType<APIRequestContext['get']>>) => {
    expect(res.ok(), `${username} ${what}: ${res.status()} ${await res.text()}`).toBe(true);
    return (await res.json()) as unknown;
  };
  return {
    get: async (url) => check(`GET ${url}`, await request.get(url, { headers })),
    post: async (url, data = {}, extra = {}) =>
      check(`POST ${url}`, await request.post(url, { headers: { ...headers, ...extra }, data })),
  };
}

interface Raised {
  id: string;
  reference: string;
  title: string;
}

/**
 * rita creates and submits a request (Office Supplies, so the Standard approval route);
 * `foreign`: in another currency than her organization's.
 */
async function raise(
  rita: Api,
  title: string,
  amount = '240.00',
  extra: Record<string, unknown> = {},
  foreign = false,
): Promise<Raised & { currency: string }> {
  const options = (await rita.get('/api/requests/options')) as {
    categories: { id: string; name: string }[];
    organization: { currency: string };
    currencies: string[];
  };
  const category = options.categories.find((c) => c.name.startsWith('Office Supplies')) ?? options.categories[0]!;
  const own = options.organization.currency;
  const currency = foreign
    ? (options.currencies.find((c) => c === 'EUR' && c !== own) ?? options.currencies.find((c) => c !== own)!)
    : own;
  const draft = (await rita.post('/api/requests', { title, amount, currency, categoryId: category.id, ...extra })) as {
    id: string;
    reference: string;
  };
  await rita.post(`/api/requests/${draft.id}/submit`, {}, { 'idempotency-key': crypto.randomUUID() });
  return { id: draft.id, reference: draft.reference, title, currency };
}

async function as(browser: Browser, username: string, path: string, viewport = DESKTOP): Promise<Page> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await signInAs(page, username, undefined, path);
  return page;
}

/** The in-flight row of one request on /approvals-management, found by its title. */
async function inFlightRow(page: Page, title: string): Promise<Locator> {
  await page.getByRole('searchbox', { name: 'Search approvals in flight' }).fill(title);
  const row = page.getByRole('table', { name: 'In-flight approvals' }).getByRole('row').filter({ hasText: title });
  await expect(row).toHaveCount(1);
  return row;
}

async function pickPerson(page: Page, scope: Locator, field: RegExp, search: string, option: RegExp) {
  await pickSearched(page, scope.getByRole('combobox', { name: field }), search, option);
}

test.describe('approvals management', () => {
  test('carla reassigns max’s item to felix, and felix finds it in his queue', async ({ browser, request }) => {
    test.setTimeout(120_000);
    const tag = suffix();
    const rita = await apiAs(request, 'rita');
    const item = await raise(rita, `Depot ladders ${tag}`);

    const carla = await as(browser, 'carla', '/approvals-management');
    const row = await inFlightRow(carla, item.title);
    await expect(row).toContainText(item.reference);
    await expect(row).toContainText('1 of 2 · Line manager');
    await expect(row).toContainText('Max Fischer');

    await row.getByRole('button', { name: `Actions for ${item.reference}` }).click();
    await carla.getByRole('menuitem', { name: 'Reassign…' }).click();
    const dialog = carla.getByRole('dialog', { name: `Reassign ${item.reference}` });
    await expect(dialog.getByRole('combobox', { name: /^Take it from/ })).toContainText('Max Fischer');
    await pickPerson(carla, dialog, /^Give it to/, 'Felix', /Felix Wagner/);
    await dialog.getByLabel(/^Note/).fill('Max is on a site visit this week');
    await expectAccessible(carla);
    await snap(carla, 'reassign-dialog');
    await dialog.getByRole('button', { name: 'Reassign' }).click();
    await expectToast(carla, 'Reassigned', `${item.reference} moved from Max Fischer`);
    await expect(dialog).toBeHidden();
    await expect(row).toContainText('Felix Wagner (reassigned)');
    await expect(row).not.toContainText('Max Fischer');
    await snap(carla, 'approvals-management-reassigned');

    // felix has it; max no longer does.
    const felix = await as(browser, 'felix', '/approvals');
    await felix.getByRole('searchbox', { name: 'Search requests waiting for you' }).fill(tag);
    const felixRow = felix
      .getByRole('table', { name: 'Approval queue' })
      .getByRole('row')
      .filter({ hasText: item.title });
    await expect(felixRow).toHaveCount(1);
    await expect(felix.getByRole('table', { name: 'Approval queue' }).getByRole('row')).toHaveCount(2);
    await expect(felixRow).toContainText('1 of 2 · Line manager');
    await snap(felix, 'approvals-queue-felix');
    const max = await apiAs(request, 'max');
    const maxQueue = (await max.get(`/api/approvals/queue?q=${tag}`)) as { total: number };
    expect(maxQueue.total).toBe(0);
  });

  test('carla escalates a step: its fallback approver (dana) is added', async ({ browser, request }) => {
    const tag = suffix();
    const rita = await apiAs(request, 'rita');
    const item = await raise(rita, `Loading dock mats ${tag}`, '310.00');

    const carla = await as(browser, 'carla', '/approvals-management');
    const row = await inFlightRow(carla, item.title);
    await expect(row).not.toContainText('escalated');
    await row.getByRole('button', { name: `Actions for ${item.reference}` }).click();
    await carla.getByRole('menuitem', { name: 'Escalate…' }).click();
    const confirm = carla.getByRole('alertdialog', { name: `Escalate ${item.reference}?` });
    await confirm.getByLabel(/^Note/).fill('Waiting too long before the quarter closes');
    await confirm.getByRole('button', { name: 'Escalate' }).click();
    await expectToast(carla, 'Escalated', `${item.reference} was escalated.`);
    // max keeps the item; dana (the Line manager step's fallback) gets it as well.
    await expect(row).toContainText('Max Fischer');
    await expect(row).toContainText('Dana Kim (escalated)');
    await expect(row).toContainText(/escalated \w/);
    await snap(carla, 'approvals-management-escalated');

    const dana = await apiAs(request, 'dana');
    const queue = (await dana.get(`/api/approvals/queue?q=${tag}`)) as {
      items: { reference: string; stepPosition: number }[];
    };
    expect(queue.items.map((i) => [i.reference, i.stepPosition])).toEqual([[item.reference, 1]]);
  });

  test('adam re-routes a pending request from today’s workflows', async ({ browser, request }) => {
    const tag = suffix();
    const rita = await apiAs(request, 'rita');
    const item = await raise(rita, `Pallet jack repair ${tag}`, '275.00');

    const adam = await as(browser, 'adam', '/approvals-management');
    const row = await inFlightRow(adam, item.title);
    await row.getByRole('button', { name: `Actions for ${item.reference}` }).click();
    await adam.getByRole('menuitem', { name: 'Re-route…' }).click();
    const confirm = adam.getByRole('alertdialog', { name: `Re-route ${item.reference}?` });
    await expect(confirm).toContainText('starting at the first step');
    await confirm.getByLabel(/^Note/).fill('Workflows changed this morning');
    await confirm.getByRole('button', { name: 'Re-route' }).click();
    await expectToast(adam, 'Re-routed', `${item.reference} follows a new route.`);
    await expect(row).toContainText('1 of 2 · Line manager');
    await expect(row).toContainText('Max Fischer');

    const detail = (await rita.get(`/api/requests/${item.id}`)) as {
      status: string;
      timeline: { type: string; note: string | null }[];
    };
    expect(detail.status).toBe('pending');
    expect(detail.timeline.find((e) => e.type === 'rerouted')?.note).toContain('Workflows changed this morning');
  });

  test('carla reassigns from Requests Management; dana (no approvals.manage) is not offered it', async ({
    browser,
    request,
  }) => {
    test.setTimeout(120_000);
    const tag = suffix();
    const rita = await apiAs(request, 'rita');
    const item = await raise(rita, `Forklift tyres ${tag}`, '520.00');

    const carla = await as(browser, 'carla', '/requests-management');
    await carla.getByRole('searchbox', { name: 'Search requests' }).fill(item.title);
    const row = carla.getByRole('table', { name: 'Requests' }).getByRole('row').filter({ hasText: item.title });
    await expect(row).toHaveCount(1);
    await row.getByRole('button', { name: `Actions for ${item.reference}` }).click();
    await expect(carla.getByRole('menuitem', { name: 'Mark paid' })).toHaveCount(0);
    await carla.getByRole('menuitem', { name: 'Reassign approver…' }).click();
    const dialog = carla.getByRole('dialog', { name: `Reassign ${item.reference}` });
    await expect(dialog).toContainText('Step 1 of 2 · Line manager');
    await expect(dialog.getByRole('combobox', { name: /^Take it from/ })).toContainText('Max Fischer');
    await pickPerson(carla, dialog, /^Give it to/, 'Felix', /Felix Wagner/);
    await expectAccessible(carla);
    await snap(carla, 'requests-management-reassign');
    await carla.setViewportSize(MOBILE);
    await snap(carla, 'requests-management-reassign');
    await carla.setViewportSize(DESKTOP);
    await dialog.getByRole('button', { name: 'Reassign' }).click();
    await expectToast(carla, 'Reassigned', `${item.reference} moved from Max Fischer`);
    await expect(row).toContainText('Felix Wagner');

    // The request's route says so too.
    await row.getByText(item.title).click();
    const sheet = carla.getByRole('dialog', { name: 'Request' });
    await expect(sheet.getByTestId('request-detail')).toContainText('Felix Wagner');
    await carla.keyboard.press('Escape');

    // dana reads the requests of her department but does not manage approvals.
    const dana = await as(browser, 'dana', '/requests-management');
    await dana.getByRole('searchbox', { name: 'Search requests' }).fill(item.title);
    const danaRow = dana.getByRole('table', { name: 'Requests' }).getByRole('row').filter({ hasText: item.title });
    await expect(danaRow).toHaveCount(1);
    await expect(danaRow.getByRole('button', { name: `Actions for ${item.reference}` })).toHaveCount(0);
  });
});

test.describe('approvals queue on a phone (max)', () => {
  test('shows cards with the essentials, opens one by keyboard and bulk-approves', async ({ browser, request }) => {
    test.setTimeout(120_000);
    const tag = suffix();
    const rita = await apiAs(request, 'rita');
    const first = await raise(rita, `Hi-vis vests ${tag}`, '180.00');
    const second = await raise(rita, `Warehouse scanner batteries for the night shift ${tag}`, '95.50', {}, true);

    const max = await as(browser, 'max', '/approvals', MOBILE);
    await max.getByRole('searchbox', { name: 'Search requests waiting for you' }).fill(tag);
    const list = max.getByRole('list', { name: 'Approval queue' });
    // Each card holds its own list (the budget lines it would consume): count the cards only.
    const cards = list.locator(':scope > li');
    await expect(cards).toHaveCount(2);
    await expect(max.getByRole('table', { name: 'Approval queue' })).toBeHidden();

    const card = cards.filter({ hasText: first.title });
    await expect(card).toContainText(first.reference);
    await expect(card).toContainText('Rita Alvarez');
    await expect(card).toContainText('$180.00');
    await expect(card).toContainText('Step 1 of 2 · Line manager');
    await expect(card.getByTestId('sla-badge')).toHaveText('On track');
    // A foreign amount also shows in the organization's currency.
    const foreign = cards.filter({ hasText: second.title });
    await expect(foreign).toContainText('95.50');
    await expect(foreign).toContainText(second.currency === 'EUR' ? '€95.50' : second.currency);
    await expect(foreign).toContainText(/\$[\d,.]+ · rate/);
    // Nothing scrolls sideways.
    expect(await max.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
    await expectAccessible(max);
    await snap(max, 'approvals-cards');

    // Keyboard: the card's button takes focus (visibly) and opens the item with Enter.
    const open = card.getByRole('button', { name: `Open ${first.reference} ${first.title}` });
    await open.focus();
    await expect(open).toBeFocused();
    await snap(max, 'approvals-card-focus');
    await max.keyboard.press('Enter');
    const dialog = max.getByRole('dialog', { name: new RegExp(first.title) });
    await expect(dialog.getByTestId('request-detail')).toBeVisible();
    await max.keyboard.press('Escape');
    await expect(dialog).toBeHidden();

    // A tap anywhere on the card opens it too (the title's button is stretched over the card).
    // Centred first: a forced click skips the check that the fixed bottom bar is not on top of it.
    await foreign.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await foreign.getByText('Rita Alvarez').click({ force: true });
    await expect(max.getByRole('dialog', { name: new RegExp(second.title) })).toBeVisible();
    await max.keyboard.press('Escape');

    // Select both on their cards and approve them together.
    await list.getByLabel(`Select ${first.reference} ${first.title}`).check();
    await list.getByLabel(`Select ${second.reference} ${second.title}`).check();
    await expect(card).toHaveAttribute('data-state', 'selected');
    await snap(max, 'approvals-cards-selected');
    await max.getByRole('button', { name: 'Approve 2 selected' }).click();
    const confirm = max.getByRole('alertdialog', { name: 'Approve 2 requests?' });
    await expect(confirm).toContainText(first.reference);
    await confirm.getByRole('button', { name: 'Approve all' }).click();
    await expectToast(max, '2 approved');
    await expect(cards).toHaveCount(0);
    // (The table's copy of the message is hidden on phones.)
    await expect(max.getByText('No requests waiting for you match your filters').locator('visible=true')).toBeVisible();
  });
});

test.describe('recurring requests', () => {
  test('an occurrence links to its monthly template', async ({ browser, request }) => {
    // The job runner raises the missed occurrence on its next pass (every 60 s by default).
    test.setTimeout(180_000);
    const tag = suffix();
    const rita = await apiAs(request, 'rita');
    const template = await raise(rita, `Depot cleaning ${tag}`, '150.00', {
      recurrence: 'monthly',
      recurrenceEnd: isoDay(20),
      expenseDate: isoDay(-40),
    });
    const max = await apiAs(request, 'max');
    const dana = await apiAs(request, 'dana');
    await max.post(`/api/approvals/${template.id}/decide`, { decision: 'approved' });
    await dana.post(`/api/approvals/${template.id}/decide`, { decision: 'approved' });

    let occurrenceId = '';
    await expect
      .poll(
        async () => {
          const mine = (await rita.get(`/api/requests/mine?q=${tag}`)) as { items: { id: string }[] };
          occurrenceId = mine.items.find((i) => i.id !== template.id)?.id ?? '';
          return occurrenceId;
        },
        { timeout: 150_000, intervals: [2_000] },
      )
      .not.toBe('');

    const page = await as(browser, 'rita', `/requests?id=${occurrenceId}`);
    const detail = page.getByTestId('request-detail');
    const recurrence = detail.getByTestId('request-recurrence');
    await expect(recurrence).toHaveText(`Occurrence of ${template.reference}`);
    await snap(page, 'request-occurrence');
    await recurrence.getByRole('link', { name: template.reference }).click();
    await expect(page).toHaveURL(new RegExp(`id=${template.id}`));
    await expect(detail.getByText(template.reference, { exact: true })).toBeVisible();
    await expect(detail.getByTestId('request-recurrence')).toHaveText(/^Repeats monthly until /);
  });
});
