import { expect, test } from '@playwright/test';
import { apiAs, expectAccessible, expectNoSidewaysScroll, MOBILE, pageAs, snap } from './fixtures';

/*
 * Financial flow on the seeded history (read only): carla sees the group's flow, its total as
 * the API gives it, opens the requests behind a node from the diagram and from the table; felix
 * sees his subsidiary only; rita is refused. Screenshots at desktop and phone size.
 */

type Flow = {
  total: string;
  currency: string;
  nodes: { id: string; kind: string; name: string; amount: string }[];
  links: unknown[];
};

const money = (amount: string, currency: string) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(amount as unknown as number);

test.describe('financial flow', () => {
  test('carla follows the group’s money to vendors and opens the requests behind a node', async ({ browser }) => {
    test.setTimeout(120_000);
    const page = await pageAs(browser, 'carla', '/financial-flow');
    const api = await apiAs(page.context().request, 'carla');
    const now = new Date();
    const to = now.toISOString().slice(0, 7);
    const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 11, 1)).toISOString().slice(0, 7);
    const flow = await api.get<Flow>(`/api/financial-flow?from=${from}&to=${to}`);
    expect(flow.links.length).toBeGreaterThan(5);

    await expect(page.getByRole('heading', { name: 'Financial Flow', level: 1 })).toBeVisible();
    await expect(page.getByTestId('flow-total')).toContainText(money(flow.total, flow.currency));
    const diagram = page.getByTestId('flow-diagram');
    // Each column shows its twelve largest nodes and folds the rest into one.
    const columns = ['organization', 'department', 'category', 'vendor'].map(
      (k) => flow.nodes.filter((n) => n.kind === k).length,
    );
    await expect(diagram.locator('[data-node]')).toHaveCount(columns.reduce((sum, n) => sum + Math.min(n, 13), 0));
    // Every organization is drawn with its name.
    for (const org of flow.nodes.filter((n) => n.kind === 'organization'))
      await expect(diagram.locator(`[data-node="${org.id}"] text`)).toContainText(org.name);

    // Hover: the node's amount in the group currency.
    const largestOrg = flow.nodes.find((n) => n.kind === 'organization')!;
    await diagram.locator(`[data-node="${largestOrg.id}"] rect`).hover();
    await expect(page.getByText(money(largestOrg.amount, flow.currency)).first()).toBeVisible();

    // Click a node: its requests.
    await diagram.locator(`[data-node="${largestOrg.id}"] rect`).click({ force: true });
    const panel = page.getByRole('heading', { name: `Requests of ${largestOrg.name}` });
    await expect(panel).toBeVisible();
    await expect(page.getByRole('table', { name: `Requests of ${largestOrg.name}` }).getByRole('row')).not.toHaveCount(
      1,
    );
    await snap(page, 'financial-flow-carla');
    await expectAccessible(page);

    // The table offers every flow, and the same requests, to the keyboard.
    await page.getByRole('button', { name: 'Close the requests' }).click();
    const vendor =
      flow.nodes.find((n) => n.kind === 'vendor' && n.id === 'vendor:none') ??
      flow.nodes.find((n) => n.kind === 'vendor')!;
    await page.getByRole('button', { name: /^Show all \d+ flows$/ }).click();
    const button = page.getByRole('button', { name: `${vendor.name}: show its requests` }).first();
    await button.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: `Requests of ${vendor.name}` })).toBeVisible();

    // Only pending requests: another flow.
    await page.getByLabel('Pending').check();
    await page.getByLabel('Approved').uncheck();
    await page.getByLabel('Paid').uncheck();
    // The last status left cannot be taken away.
    await expect(page.getByLabel('Pending')).toBeDisabled();
    const pending = await api.get<Flow>(`/api/financial-flow?from=${from}&to=${to}&status=pending`);
    await expect(page.getByTestId('flow-total')).toContainText(money(pending.total, pending.currency));

    // A period with nothing in it says so.
    await page.getByLabel('From month').fill('2001-01');
    await page.getByLabel('To month').fill('2001-02');
    await expect(page.getByTestId('flow-empty')).toBeVisible();
  });

  test('on a phone the diagram’s columns are stacked cards, the flows are cards, and nothing scrolls sideways', async ({
    browser,
  }) => {
    const page = await pageAs(browser, 'carla', '/financial-flow', MOBILE);
    const flow = await (await apiAs(page.context().request, 'carla')).get<Flow>('/api/financial-flow');
    await expect(page.getByTestId('flow-diagram')).toBeHidden();
    // Each column as a list of cards, largest first, the twelve largest and then the rest folded into one.
    const organizations = page.getByRole('list', { name: 'Organizations' }).getByTestId('flow-column-node');
    const orgs = flow.nodes.filter((n) => n.kind === 'organization');
    await expect(organizations).toHaveCount(Math.min(orgs.length, 13));
    await expect(organizations.first()).toContainText(orgs[0]!.name);
    await expect(organizations.first()).toContainText(money(orgs[0]!.amount, flow.currency));
    for (const column of ['Departments', 'Categories', 'Vendors'])
      await expect(page.getByRole('list', { name: column }).getByTestId('flow-column-node').first()).toBeVisible();
    await expect(page.getByRole('list', { name: /Each flow/ })).toBeVisible();
    await expectNoSidewaysScroll(page);
    await expectAccessible(page);
    await snap(page, 'financial-flow-carla');

    // A card opens its node's requests, as a bar of the diagram does; they are cards too.
    await page
      .getByRole('list', { name: 'Organizations' })
      .getByRole('button', { name: `${orgs[0]!.name}: show its requests` })
      .click();
    await expect(page.getByRole('heading', { name: `Requests of ${orgs[0]!.name}` })).toBeFocused();
    await expect(
      page
        .getByRole('list', { name: `Requests of ${orgs[0]!.name}` })
        .getByRole('listitem')
        .first(),
    ).toBeVisible();
    await expectNoSidewaysScroll(page);
  });

  test('felix sees his subsidiary only; rita is refused', async ({ browser }) => {
    const page = await pageAs(browser, 'felix', '/financial-flow');
    const flow = await (await apiAs(page.context().request, 'felix')).get<Flow>('/api/financial-flow');
    const orgs = flow.nodes.filter((n) => n.kind === 'organization');
    expect(orgs.map((o) => o.name)).toEqual(['Meridian Logistics']);
    await expect(page.getByTestId('flow-total')).toContainText(money(flow.total, flow.currency));
    const diagram = page.getByTestId('flow-diagram');
    await expect(diagram.locator(`[data-node="${orgs[0]!.id}"] text`)).toContainText('Meridian Logistics');
    await expect(diagram.locator('[data-node^="organization:"]')).toHaveCount(1);
    // One organization: no organization picker.
    await expect(page.getByLabel('Organization')).toHaveCount(0);
    await snap(page, 'financial-flow-felix');

    const rita = await pageAs(browser, 'rita', '/financial-flow');
    await expect(rita.getByTestId('access-restricted')).toBeVisible();
    await expect(rita.getByTestId('flow-diagram')).toHaveCount(0);
  });
});
