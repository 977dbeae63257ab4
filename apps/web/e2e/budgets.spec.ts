import { expect, test, type Browser, type Page } from '@playwright/test';
import { apiLogin, DESKTOP, expectAccessible, expectToast, MOBILE, signInAs, snap } from './fixtures';

/*
 * Budgets: carla gives Meridian Logistics · Operations a small Training line for this
 * month; rita raises a Training request over it; it goes to the "Budget overrun" step first; carla (cfo) approves the overrun with a note on
 * /budget-overrun-approvals; the request continues to max (manager). Then the budget screens
 * with the seeded lines. Titles carry a random suffix: the seeded history fills the lists too.
 */

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

test.describe('budgets', () => {
  test('a request over budget goes to carla first; she approves the overrun with a note and it moves on to max', async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const title = `Forklift training ${suffix()}`;

    // A line of its own (a category no other spec uses), so the other specs' requests by rita
    // never meet this overrun and this test never depends on how much they spent.
    const carlaApi = await browser.newContext();
    const login = await apiLogin(carlaApi.request, 'carla');
    const headers = { Authorization: `Bearer ${login.tokens!.accessToken}`, 'X-Device-ID': login.deviceId! };
    const options = (await (await carlaApi.request.get('/api/budgets/options', { headers })).json()) as {
      organizations: { id: string; name: string }[];
      departments: { id: string; organizationId: string; name: string }[];
      categories: { id: string; organizationId: string | null; name: string }[];
    };
    const org = options.organizations.find((o) => o.name === 'Meridian Logistics')!;
    const dept = options.departments.find((d) => d.organizationId === org.id && d.name === 'Operations')!;
    const training = options.categories.find(
      (c) => c.name === 'Training' && (c.organizationId === null || c.organizationId === org.id),
    )!;
    const month = `${new Date().toISOString().slice(0, 7)}-01`;
    const created = await carlaApi.request.post('/api/budgets/lines', {
      headers,
      data: {
        organizationId: org.id,
        departmentId: dept.id,
        categoryId: training.id,
        periodType: 'month',
        periodStart: month,
        currency: 'USD',
        amount: '1000.00',
      },
    });
    // 409: a re-run against the same database finds the line already there.
    expect([201, 409], await created.text()).toContain(created.status());
    await carlaApi.close();

    const rita = await as(browser, 'rita', '/new-request');
    await expect(rita.getByRole('heading', { name: 'New Request' })).toBeVisible();
    await rita.getByLabel(/^Title/).fill(title);
    await rita.getByLabel(/^Description/).fill('Forklift operator certification for the Long Beach depot crew.');
    await rita.getByLabel(/^Amount/).fill('1500');
    await choose(rita, /^Category/, /^Training/);
    await rita.getByLabel(/^Justification/).fill('The depot crew must be certified before the new forklifts arrive.');
    await rita.getByRole('button', { name: 'Submit for approval' }).click();
    const saved = rita.getByTestId('request-saved');
    await expect(saved).toContainText('Submitted for approval');
    const reference = (await saved.textContent())?.match(/REQ-\d{6}/)?.[0];
    expect(reference).toBeTruthy();

    // Her request's route: the budget overrun step comes first.
    await rita.goto('/requests');
    await rita.getByRole('searchbox').fill(title);
    const mine = rita.getByRole('table', { name: 'My requests' }).getByRole('row').filter({ hasText: title });
    await expect(mine).toHaveCount(1);
    await mine.click();
    const detail = rita.getByTestId('request-detail');
    await expect(detail).toContainText('Budget overrun');
    await snap(rita, 'budgets-1-request-over-budget');

    // carla: the overrun is pending on her screen; she approves it with a note.
    const carla = await as(browser, 'carla', '/budget-overrun-approvals');
    await expect(carla.getByRole('heading', { name: 'Budget Overrun Approvals' })).toBeVisible();
    await carla.getByRole('searchbox').fill(title);
    const row = carla
      .getByRole('table', { name: 'Pending budget overruns' })
      .getByRole('row')
      .filter({ hasText: title });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('Rita Alvarez');
    await expect(row).toContainText('Operations');
    await expect(row).toContainText(/over/);
    await carla.getByRole('searchbox').fill('');
    await expectAccessible(carla);
    await snap(carla, 'budgets-overruns');
    await carla.setViewportSize(MOBILE);
    await snap(carla, 'budgets-overruns');
    await carla.setViewportSize(DESKTOP);

    await carla.getByRole('searchbox').fill(title);
    await expect(row).toHaveCount(1);
    await row.getByRole('button', { name: `Approve overrun of ${reference}` }).click();
    const dialog = carla.getByRole('alertdialog').or(carla.getByRole('dialog'));
    await expect(dialog).toContainText(`Approve the overrun of ${reference}?`);
    // A note is required.
    await dialog.getByRole('button', { name: 'Approve overrun' }).click();
    await expect(dialog).toContainText('Enter a reason');
    await dialog.getByRole('textbox').fill('Inspection replacement; covered by Q4 savings in Operations.');
    await dialog.getByRole('button', { name: 'Approve overrun' }).click();
    await expectToast(carla, 'Overrun approved', `${reference} continues on its route`);
    await expect(
      carla.getByRole('table', { name: 'Pending budget overruns' }).getByRole('row').filter({ hasText: title }),
    ).toHaveCount(0);
    await carla.getByRole('tab', { name: 'Decided' }).click();
    await carla.getByRole('searchbox').fill(title);
    const decided = carla
      .getByRole('table', { name: 'Decided budget overruns' })
      .getByRole('row')
      .filter({ hasText: title });
    await expect(decided).toContainText('Approved');
    await expect(decided).toContainText('covered by Q4 savings');

    // max: the request is now in his queue (the normal route continues).
    const max = await as(browser, 'max', '/approvals');
    await expect(max.getByRole('heading', { name: 'Approvals' })).toBeVisible();
    await max.getByRole('searchbox', { name: 'Search requests waiting for you' }).fill(title);
    const queued = max.getByRole('table', { name: 'Approval queue' }).getByRole('row').filter({ hasText: title });
    await expect(queued).toHaveCount(1);
    await expect(queued).toContainText(reference!);
  });

  test('budget management and budget vs actual show the seeded lines', async ({ browser }) => {
    test.setTimeout(120_000);
    const carla = await as(browser, 'carla', '/budget-management');
    await expect(carla.getByRole('heading', { name: 'Budget Management' })).toBeVisible();
    const table = carla.getByRole('table', { name: 'Budget lines' });
    await expect(table.getByRole('row').nth(1)).toBeVisible();
    await expect(table).toContainText('Meridian');
    await expect(table.getByRole('progressbar').first()).toBeVisible();
    await expectAccessible(carla);
    await snap(carla, 'budgets-management');
    await carla.getByRole('button', { name: 'New line' }).click();
    await expect(carla.getByRole('dialog', { name: 'New budget line' })).toBeVisible();
    await snap(carla, 'budgets-management-new-line');
    await carla.keyboard.press('Escape');
    await carla.setViewportSize(MOBILE);
    await snap(carla, 'budgets-management');
    await carla.setViewportSize(DESKTOP);

    await carla.goto('/budget-vs-actual');
    await expect(carla.getByRole('heading', { name: 'Budget vs Actual' })).toBeVisible();
    await expect(carla.getByRole('img', { name: /Bar chart of budget/ })).toBeVisible();
    const first = carla.getByRole('table').getByRole('button').first();
    await expect(first).toBeVisible();
    await expectAccessible(carla);
    await snap(carla, 'budgets-vs-actual');
    await first.click();
    const drill = carla.getByRole('dialog', { name: /^Requests on / });
    await expect(drill).toBeVisible();
    await expect(drill.getByRole('table', { name: 'Requests on this line' }).getByRole('row').nth(1)).toBeVisible();
    await snap(carla, 'budgets-vs-actual-drilldown');
    await carla.keyboard.press('Escape');
    await carla.setViewportSize(MOBILE);
    await snap(carla, 'budgets-vs-actual');
  });
});
