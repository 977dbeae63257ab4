import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import {
  apiAs,
  DESKTOP,
  expectAccessible,
  expectInViewport,
  expectNoSidewaysScroll,
  expectToast,
  MOBILE,
  signInAs,
  snap,
} from './fixtures';

/*
 * Budget impact before deciding, and an overrun approved with the line raised. carla gives
 * Meridian Logistics a small line of this month on a department other than rita's own
 * (Operations, which the other specs' requests use) and a category the other specs leave alone,
 * so only this spec's requests consume it. rita's form shows the line while she types; carla
 * (cfo, the overrun approver) sees the same block on the queue item and in the approval dialog,
 * approves the overrun raising the line, and the line's history in budget management shows it.
 */

const suffix = () => Math.random().toString(36).slice(2, 8);

async function as(browser: Browser, username: string, path: string, viewport = DESKTOP): Promise<Page> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await signInAs(page, username, undefined, path);
  return page;
}

// The list can re-render under the pointer while it opens (the click then lands on another option
// and the list stays open, hiding the rest of the form): pick again until the list has closed on
// the option asked for.
async function choose(page: Page, field: RegExp | string, option: string) {
  const box = page.getByRole('combobox', { name: field, includeHidden: true });
  await expect(async () => {
    if ((await box.getAttribute('aria-expanded')) !== 'true') await box.click({ timeout: 2_000 });
    await page.getByRole('option', { name: option }).first().click({ timeout: 2_000 });
    await expect(box).toHaveAttribute('aria-expanded', 'false', { timeout: 1_000 });
    await expect(box).toContainText(option.replace(/ \([^)]*\)$/, ''), { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
}

interface Options {
  organization: { id: string; name: string };
  departments: { id: string; name: string; code: string }[];
  categories: { id: string; name: string; code: string }[];
}

test('budget impact while typing, on the queue item and in the approval dialog; the overrun approver raises the line', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const title = `Cold-chain sensors ${suffix()}`;
  const month = `${new Date().toISOString().slice(0, 7)}-01`;

  // A line of our own: the first department × category of rita's organization without one this month.
  const ritaApi = await apiAs((await browser.newContext()).request, 'rita');
  const carlaApi = await apiAs((await browser.newContext()).request, 'carla');
  const options = await ritaApi.get<Options>('/api/requests/options');
  const taken = new Set(['Operations', 'Training', 'Office Supplies']);
  const existing = await carlaApi.get<{ items: { departmentId: string | null; categoryId: string | null }[] }>(
    `/api/budgets/lines?organizationId=${options.organization.id}&periodType=month&date=${month}&pageSize=100`,
  );
  const used = new Set(existing.items.map((l) => `${l.departmentId}:${l.categoryId}`));
  const pairs = options.departments
    .filter((d) => !taken.has(d.name))
    .flatMap((d) => options.categories.filter((c) => !taken.has(c.name) && c.name !== 'Payroll').map((c) => ({ d, c })))
    .filter(({ d, c }) => !used.has(`${d.id}:${c.id}`));
  const { d: dept, c: cat } = pairs[pairs.length - 1]!;
  const line = await carlaApi.post<{ id: string; label: string }>('/api/budgets/lines', {
    organizationId: options.organization.id,
    departmentId: dept.id,
    categoryId: cat.id,
    periodType: 'month',
    periodStart: month,
    currency: 'USD',
    amount: '1000.00',
  });
  const ours = (root: Page | Locator) =>
    root
      .getByTestId('budget-impact')
      .getByTestId('budget-impact-line')
      .filter({ hasText: `${dept.name} · ${cat.name}` });

  // rita: the form shows the line while she types (debounced), within budget then over it.
  const rita = await as(browser, 'rita', '/new-request');
  await expect(rita.getByRole('heading', { name: 'New Request' })).toBeVisible();
  const impact = rita.getByTestId('budget-impact');
  await expect(impact).toContainText('Enter an amount to see what it does to the budget.');
  await rita.getByLabel(/^Title/).fill(title);
  await rita.getByLabel(/^Description/).fill('Temperature sensors for the refrigerated trailers.');
  await choose(rita, /^Category/, `${cat.name} (${cat.code})`);
  await choose(rita, /^Department/, `${dept.name} (${dept.code})`);
  await rita.getByLabel(/^Amount/).fill('400');
  await expect(ours(rita)).toContainText('Within budget');
  await expect(ours(rita)).toContainText('$1,000.00');
  await expect(ours(rita)).toContainText('$600.00');
  await rita.getByLabel(/^Amount/).fill('1500');
  await expect(ours(rita)).toContainText('Over budget by $500.00');
  await expect(ours(rita)).toContainText('-$500.00');
  await expectAccessible(rita);
  await snap(rita, 'budget-impact-1-form');
  await rita.setViewportSize(MOBILE);
  await impact.scrollIntoViewIfNeeded();
  await snap(rita, 'budget-impact-1-form');
  await rita.setViewportSize(DESKTOP);

  await rita.getByLabel(/^Justification/).fill('The trailers fail the cold-chain audit without them.');
  await rita.getByRole('button', { name: 'Submit for approval' }).click();
  const saved = rita.getByTestId('request-saved');
  await expect(saved).toContainText('Submitted for approval');
  const reference = (await saved.textContent())?.match(/REQ-\d{6}/)?.[0];
  expect(reference).toBeTruthy();

  // carla: the queue item carries the block, compact: a line each, with a meter and what is left or how far over.
  const carla = await as(browser, 'carla', '/approvals');
  await expect(carla.getByRole('heading', { name: 'Approvals' })).toBeVisible();
  await carla.getByRole('searchbox', { name: 'Search requests waiting for you' }).fill(title);
  const queued = carla.getByRole('table', { name: 'Approval queue' }).getByRole('row').filter({ hasText: title });
  await expect(queued).toHaveCount(1);
  const queuedLine = queued.getByTestId('budget-impact-line').filter({ hasText: `${dept.name} · ${cat.name}` });
  await expect(queuedLine).toContainText('Over by $500.00');
  // The request's own money is not counted in "before": the line had all of its 1,000 left.
  await expect(queuedLine).toHaveAttribute('title', /remaining \$1,000\.00 → -\$500\.00 of \$1,000\.00/);
  await expect(queuedLine.getByTestId('budget-impact-meter')).toBeVisible();
  // One text line per budget line, and no heading or box around them: a row stays short, so a screen holds many.
  for (const line of await queued.getByTestId('budget-impact-line').all())
    expect((await line.boundingBox())!.height).toBeLessThan(24);
  await expect(queued.getByRole('heading', { name: 'Budget impact' })).toHaveCount(0);
  expect((await queued.boundingBox())!.height).toBeLessThan(140);
  await expectAccessible(carla);
  await snap(carla, 'budget-impact-2-queue');

  // The approval dialog shows the same block, in full.
  await queued.getByRole('button', { name: `Open ${reference} ${title}` }).click();
  const dialog = carla.getByRole('dialog');
  await expect(ours(dialog)).toContainText('Over budget by $500.00');
  await expect(dialog.getByTestId('budget-impact')).toContainText('Remaining before');
  await expectAccessible(carla);
  await snap(carla, 'budget-impact-3-dialog');
  // On a phone the dialog fits the screen: its title and every figure inside it, nothing scrolling sideways.
  await carla.setViewportSize(MOBILE);
  await expectInViewport(carla, dialog);
  await expectNoSidewaysScroll(carla, '[role="dialog"]');
  await expectInViewport(carla, dialog.getByRole('heading', { name: `${reference} ${title}` }));
  for (const figure of await ours(dialog).locator('dd').all()) {
    const box = (await figure.boundingBox())!;
    const inside = (await dialog.boundingBox())!;
    expect(box.x + box.width, 'a budget figure inside the dialog').toBeLessThanOrEqual(inside.x + inside.width);
  }
  await expectAccessible(carla);
  await snap(carla, 'budget-impact-3-dialog');
  await carla.setViewportSize(DESKTOP);
  // Approving the overrun step here offers the same choice as the overrun page.
  await dialog.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(dialog.getByRole('radio', { name: /Raise the line by the overrun/ })).toBeVisible();
  await expect(dialog.getByRole('radio', { name: /Approve this request only/ })).toBeChecked();
  await carla.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);

  // The phone queue: the item as a card, with the block.
  const phone = await as(browser, 'carla', '/approvals', MOBILE);
  await phone.getByRole('searchbox', { name: 'Search requests waiting for you' }).fill(title);
  const card = phone.getByTestId('approval-card').filter({ hasText: title });
  await expect(card.getByTestId('budget-impact')).toContainText('Over by $500.00');
  await snap(phone, 'budget-impact-2-queue');
  await phone.close();

  // carla approves the overrun, raising the line by it.
  await carla.goto('/budget-overrun-approvals');
  await carla.getByRole('searchbox').fill(title);
  const row = carla.getByRole('table', { name: 'Pending budget overruns' }).getByRole('row').filter({ hasText: title });
  await row.getByRole('button', { name: `Approve overrun of ${reference}` }).click();
  const confirm = carla.getByRole('alertdialog').or(carla.getByRole('dialog'));
  await expect(ours(confirm)).toContainText('Over by $500.00');
  await confirm.getByRole('radio', { name: /Raise the line by the overrun/ }).check();
  await expect(confirm.getByRole('textbox', { name: new RegExp(`Raise .*${cat.name}`) })).toHaveValue('500.00');
  await confirm
    .getByRole('textbox', { name: /^Note/ })
    .fill('Sensors are required by the audit; the line was set too low.');
  await snap(carla, 'budget-impact-4-raise');
  await carla.setViewportSize(MOBILE);
  await snap(carla, 'budget-impact-4-raise');
  await carla.setViewportSize(DESKTOP);
  await confirm.getByRole('button', { name: 'Approve overrun' }).click();
  await expectToast(carla, 'Overrun approved, line raised');

  // Budget management: the line is 1,500 and its history shows the raise.
  await carla.goto('/budget-management');
  await carla.getByRole('searchbox').fill(cat.name);
  const lineRow = carla
    .getByRole('table', { name: 'Budget lines' })
    .getByRole('row')
    .filter({ hasText: dept.name })
    .filter({ hasText: cat.name })
    .filter({ hasText: '$1,500.00' });
  await expect(lineRow).toHaveCount(1);
  await lineRow.getByRole('button', { name: `Actions for ${line.label}` }).click();
  await carla.getByRole('menuitem', { name: 'History' }).click();
  const history = carla.getByRole('dialog', { name: `History of ${line.label}` });
  const adjustment = history.getByTestId('budget-adjustment');
  await expect(adjustment).toHaveCount(1);
  await expect(adjustment).toContainText('+$500.00');
  await expect(adjustment).toContainText('$1,000.00 → $1,500.00');
  await expect(adjustment).toContainText('Carla Mendes');
  await expect(adjustment).toContainText(reference!);
  await expect(adjustment).toContainText('the line was set too low');
  await expectAccessible(carla);
  await snap(carla, 'budget-impact-5-history');
  await carla.setViewportSize(MOBILE);
  await snap(carla, 'budget-impact-5-history');
});
