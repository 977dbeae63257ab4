import { expect, test, type Page } from '@playwright/test';
import { apiAs, DESKTOP, expectAccessible, expectToast, MOBILE, pageAs, PASSWORD, signInAs, snap } from './fixtures';

/** A month far ahead that no other spec (or worker) uses: the run this spec makes is its own. */
function ownPeriod() {
  const year = 2040 + Math.floor(Math.random() * 50);
  const month = 1 + Math.floor(Math.random() * 12);
  return `${year}-${String(month).padStart(2, '0')}`;
}

const monthLabel = (period: string) =>
  new Intl.DateTimeFormat('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${period}-01T00:00:00Z`),
  );

async function openRun(page: Page, period: string, organization = 'Meridian Logistics') {
  await page
    .getByRole('searchbox', { name: /search/i })
    .first()
    .fill(period);
  const row = page.getByRole('table', { name: 'Payroll runs' }).getByRole('row').filter({ hasText: organization });
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: /^Open/ }).click();
  const dialog = page.getByRole('dialog', { name: new RegExp(`${organization} · ${monthLabel(period)}`) });
  await expect(dialog).toBeVisible();
  return dialog;
}

test.describe('payroll', () => {
  test('carla adds a bonus and submits; grace approves after confirming her password', async ({
    page,
    browser,
    request,
  }) => {
    const carla = await apiAs(request, 'carla');
    const orgs = await carla.get<{ items: { id: string; name: string }[] }>('/api/payroll/organizations');
    const logistics = orgs.items.find((o) => o.name === 'Meridian Logistics')!;
    const period = ownPeriod();
    const created = await carla.post<{ id: string }>('/api/payroll/runs', { organizationId: logistics.id, period });

    await signInAs(page, 'carla', undefined, '/payroll');
    await expect(page.getByRole('heading', { name: 'Payroll Management' })).toBeVisible();
    await expect(page.locator('[data-scaffold]')).toHaveCount(0);
    // The seeded history: paid months with their totals in the organization's currency.
    await expect(page.getByRole('table', { name: 'Payroll runs' })).toContainText('Paid');
    await expect(page.getByRole('table', { name: 'Payroll runs' })).toContainText('AED');
    await expectAccessible(page);
    await snap(page, 'payroll-runs');

    const dialog = await openRun(page, period);
    await expect(dialog.getByText('Draft', { exact: true })).toBeVisible();
    const net = dialog.getByTestId('run-net-pay');
    const before = await net.textContent();
    expect(before).toMatch(/^\$[\d,]+\.\d{2}$/);

    await dialog.getByRole('button', { name: 'Add adjustment' }).click();
    const adjust = page.getByRole('dialog', { name: 'Add an adjustment' });
    await adjust.getByRole('combobox', { name: /Employee/ }).click();
    await page.getByRole('option', { name: /Felix Wagner/ }).click();
    await adjust.getByLabel(/Amount/).fill('1000.00');
    await adjust.getByLabel(/Reason/).fill('Quarter-end bonus');
    await adjust.getByRole('button', { name: 'Add adjustment' }).click();
    await expect(adjust).toBeHidden();
    await expect(net).not.toHaveText(before!);
    await expect(dialog.getByTestId('payroll-adjustment')).toContainText('Quarter-end bonus');
    await expect(dialog.getByTestId('payroll-adjustment')).toContainText('$1,000.00');
    // The approver sees where each net is paid, masked; nobody's account changed since last month.
    await expect(dialog.getByTestId('payroll-line-row').first().getByTestId('payroll-line-bank')).toContainText(
      '•••• ',
    );
    await expect(dialog.getByTestId('bank-details-changed')).toHaveCount(0);
    await expectAccessible(page);
    await snap(page, 'payroll-run-draft');
    await page.setViewportSize(MOBILE);
    await expect(dialog.getByTestId('payroll-line-card').first()).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await snap(page, 'payroll-run-draft');
    await page.setViewportSize(DESKTOP);

    await dialog.getByRole('button', { name: 'Submit for approval' }).click();
    await page
      .getByRole('alertdialog', { name: 'Submit for approval?' })
      .getByRole('button', { name: 'Submit' })
      .click();
    await expectToast(page, 'Submitted for approval');
    await expect(dialog.getByText('Submitted', { exact: true })).toBeVisible();
    // carla submitted it: she is not offered the approval, and is told why.
    await expect(dialog.getByRole('button', { name: 'Approve' })).toHaveCount(0);
    await expect(dialog).toContainText('You submitted this payroll run; someone else must approve it');

    // Her notification links to the run itself, and the link opens it.
    const graceApi = await apiAs(request, 'grace');
    const inbox = await graceApi.get<{ items: { entityId: string | null; link: string | null }[] }>(
      '/api/notifications?pageSize=100',
    );
    const link = inbox.items.find((n) => n.entityId === created.id)?.link;
    expect(link).toBe(`/payroll?run=${created.id}`);
    const grace = await pageAs(browser, 'grace', link!);
    // Her sign-in is fresh; the server would ask again after ten minutes: answer the first
    // approval as it would then, so the password prompt is what this test drives.
    let refused = false;
    await grace.route('**/api/payroll/runs/*/approve', async (route) => {
      if (refused) return route.continue();
      refused = true;
      return route.fulfill({
        status: 403,
        contentType: 'application/json',
        body: JSON.stringify({ code: 'reauth_required', message: 'Please confirm your password to continue' }),
      });
    });
    const graceDialog = grace.getByRole('dialog', { name: new RegExp(`Meridian Logistics · ${monthLabel(period)}`) });
    await expect(graceDialog).toBeVisible();
    await expect(grace.getByRole('tab', { name: 'Employees' })).toHaveCount(0);
    await graceDialog.getByRole('button', { name: 'Approve' }).click();
    await grace
      .getByRole('alertdialog', { name: 'Approve this payroll?' })
      .getByRole('button', { name: 'Approve' })
      .click();
    const reauth = grace.getByRole('dialog', { name: 'Confirm your password' });
    await expect(reauth).toBeVisible();
    // The prompt fades in: picture it once its animation has finished.
    await reauth.evaluate((el) => Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished)));
    await snap(grace, 'payroll-reauth');
    await reauth.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
    await reauth.getByRole('button', { name: 'Confirm', exact: true }).click();
    await expectToast(grace, 'Payroll approved');
    await expect(graceDialog.getByText('Approved', { exact: true })).toBeVisible();
    await expect(graceDialog).toContainText('Approved by Grace Okafor');
    await grace.context().close();

    // Back with carla: the approved run offers the bank files and marking it paid.
    // The open run is in her address, so a reload comes back to it.
    await page.reload();
    const again = page.getByRole('dialog', { name: new RegExp(`Meridian Logistics · ${monthLabel(period)}`) });
    await expect(again).toBeVisible();
    await expect(again.getByRole('button', { name: 'Bank file (XML)' })).toBeVisible();
    const download = page.waitForEvent('download');
    await again.getByRole('button', { name: 'Bank file (CSV)' }).click();
    expect((await download).suggestedFilename()).toBe(`payroll-${period}-meridian-logistics.csv`);
  });

  test("felix sees his organization's runs only, and manages its employees with IBAN checks", async ({ page }) => {
    await signInAs(page, 'felix', undefined, '/payroll');
    const table = page.getByRole('table', { name: 'Payroll runs' });
    await expect(table.getByRole('row').nth(1)).toBeVisible();
    const orgs = await table.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.textContent ?? ''));
    expect(orgs.length).toBeGreaterThan(5);
    expect(orgs.every((t) => t.includes('Meridian Logistics'))).toBe(true);
    await expect(page.getByRole('combobox', { name: 'Organization' })).toHaveCount(0);
    await page.setViewportSize(MOBILE);
    await expect(page.getByTestId('payroll-run-card').first()).toContainText('Meridian Logistics');
    await snap(page, 'payroll-runs');
    await page.setViewportSize(DESKTOP);

    await page.getByRole('tab', { name: 'Employees' }).click();
    const people = page.getByRole('table', { name: 'Employees' });
    await expect(people).toContainText('Felix Wagner');
    await expect(people).toContainText('•••• ');
    await expect(people).not.toContainText('Meridian Energy');
    await expectAccessible(page);
    await snap(page, 'payroll-employees');
    await page.setViewportSize(MOBILE);
    await expect(page.getByTestId('employee-card').first()).toBeVisible();
    await snap(page, 'payroll-employees');
    await page.setViewportSize(DESKTOP);

    await page.getByRole('button', { name: 'New employee' }).click();
    const form = page.getByRole('dialog', { name: 'New employee' });
    const number = `E2E-${Math.random().toString(36).slice(2, 7).toUpperCase()}`;
    await form.getByLabel(/Full name/).fill('Quinn Harper');
    await form.getByLabel(/Employee number/).fill(number);
    await form.getByLabel(/Monthly base salary/).fill('5200.00');
    await form.getByLabel(/^IBAN/).fill('GB29 NWBK 6016 1331 9268 18');
    await form.getByLabel(/^BIC/).fill('NWBKGB2L');
    await form.getByRole('button', { name: 'Add employee' }).click();
    await expect(form.getByText('Enter a valid IBAN, such as DE89 3704 0044 0532 0130 00')).toBeVisible();
    await form.getByLabel(/^IBAN/).fill('GB29 NWBK 6016 1331 9268 19');
    await form.getByRole('button', { name: 'Add employee' }).click();
    await expect(form).toBeHidden();
    await page
      .getByRole('searchbox', { name: /search/i })
      .last()
      .fill(number);
    const row = people.getByRole('row').filter({ hasText: 'Quinn Harper' });
    await expect(row).toContainText('•••• 6819');
    await expect(row).toContainText('$5,200.00');
    expect(await page.content()).not.toContain('GB29NWBK60161331926819');
  });

  test('a December run pays after Christmas and says why, in the list, on the card and in the run', async ({
    page,
    request,
  }) => {
    const carla = await apiAs(request, 'carla');
    const orgs = await carla.get<{ items: { id: string; name: string }[] }>('/api/payroll/organizations');
    const foods = orgs.items.find((o) => o.name === 'Meridian Foods')!;
    // Meridian Foods pays from London, where 25 December is always a bank holiday.
    const period = `${2040 + Math.floor(Math.random() * 50)}-12`;
    const created = await carla.post<{
      payDate: string;
      payDateAdjustedFrom: string | null;
      payDateAdjustedReason: string | null;
    }>('/api/payroll/runs', { organizationId: foods.id, period });
    expect(created).toMatchObject({ payDateAdjustedFrom: `${period}-25`, payDateAdjustedReason: 'Christmas Day' });
    const date = (day: string) =>
      new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' }).format(
        new Date(`${day}T00:00:00Z`),
      );
    const note = `moved from ${date(`${period}-25`)} (Christmas Day)`;

    await signInAs(page, 'carla', undefined, '/payroll');
    await page
      .getByRole('searchbox', { name: /search/i })
      .first()
      .fill(period);
    const row = page
      .getByRole('table', { name: 'Payroll runs' })
      .getByRole('row')
      .filter({ hasText: 'Meridian Foods' });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(date(created.payDate));
    await expect(row).toContainText(`Moved from ${date(`${period}-25`)} (Christmas Day)`);
    await snap(page, 'payroll-runs-moved-pay-date');
    await page.setViewportSize(MOBILE);
    await expect(page.getByTestId('payroll-run-card').filter({ hasText: 'Meridian Foods' })).toContainText(
      `Pays ${date(created.payDate)}, ${note}`,
    );
    await snap(page, 'payroll-runs-moved-pay-date');
    await page.setViewportSize(DESKTOP);

    const dialog = await openRun(page, period, 'Meridian Foods');
    await expect(dialog).toContainText(`Pays on ${date(created.payDate)}, ${note}.`);
    await expectAccessible(page);
  });

  test('rita (requester) is refused the screen and its calls', async ({ page, request }) => {
    await signInAs(page, 'rita', undefined, '/payroll');
    await expect(page.getByTestId('access-restricted')).toBeVisible();
    await expect(page.getByRole('table', { name: 'Payroll runs' })).toHaveCount(0);
    const rita = await apiAs(request, 'rita');
    await expect(rita.get('/api/payroll/runs')).rejects.toThrow(/403/);
  });
});
