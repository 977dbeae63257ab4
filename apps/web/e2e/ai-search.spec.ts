import { expect, test } from '@playwright/test';
import { apiAs, expectAccessible, MOBILE, pageAs, snap } from './fixtures';

// leo (a requester of Meridian Foods) raises a request with a word of its own, so other specs'
// data does not matter; he finds it misspelt, and carla finds it too, with the plain-word filters.
test.describe('AI Search', () => {
  test('one box: misspelt words, kinds of results, plain-word filters opened in Requests, keyboard, phone', async ({
    browser,
    request,
  }) => {
    const word = `Zephyrcab${Date.now().toString(36)}`;
    const title = `${word} taxi to the harbour`;
    const leoApi = await apiAs(request, 'leo');
    const options = (await leoApi.get('/api/requests/options')) as {
      categories: { id: string; name: string }[];
      organization: { currency: string };
    };
    const travel = options.categories.find((c) => c.name === 'Travel') ?? options.categories[0]!;
    const draft = (await leoApi.post('/api/requests', {
      title,
      amount: '64.00',
      currency: options.organization.currency,
      categoryId: travel.id,
    })) as { id: string; reference: string };

    const leo = await pageAs(browser, 'leo', '/ai-search');
    await expect(leo.getByRole('heading', { level: 1, name: 'AI Search' })).toBeVisible();
    await expect(leo.locator('[data-scaffold]')).toHaveCount(0);
    // Empty box: the examples.
    await expect(leo.getByRole('button', { name: 'travel over 500 last month in Logistics' })).toBeVisible();
    const box = leo.getByRole('searchbox', { name: 'Search' });
    // A letter dropped from the word still finds it.
    await box.fill(word.slice(0, -3) + word.slice(-2));
    const results = leo.getByRole('list', { name: 'Search results' });
    const hit = results.getByRole('link').filter({ hasText: `${draft.reference} ${title}` });
    await expect(hit).toBeVisible();
    await expect(hit).toContainText('Request');
    await expect(leo).toHaveURL(/\/ai-search\?q=/);
    // Keyboard: down from the box into the results, Enter opens the request.
    await box.press('ArrowDown');
    await expect(results.getByRole('link').first()).toBeFocused();
    await expectAccessible(leo);
    await snap(leo, 'ai-search-results');
    await hit.focus();
    await leo.keyboard.press('Enter');
    await expect(leo).toHaveURL(new RegExp(`/requests\\?id=${draft.id}`));

    // Nothing found.
    await leo.goto('/ai-search?q=qqxqqzzv');
    await expect(leo.getByRole('status').filter({ hasText: 'Nothing found for “qqxqqzzv”.' })).toBeVisible();

    // carla reads the whole group: the plain-word filters, opened in Requests Management.
    const carla = await pageAs(
      browser,
      'carla',
      '/ai-search?q=' + encodeURIComponent('travel over 50 this month in Foods'),
    );
    const filters = carla.getByTestId('search-filters');
    await expect(filters).toContainText('Travel');
    await expect(filters).toContainText('Meridian Foods');
    await expect(filters).toContainText('over $50.00');
    await expect(
      carla.getByRole('list', { name: 'Search results' }).getByRole('link').filter({ hasText: draft.reference }),
    ).toBeVisible();
    await snap(carla, 'ai-search-filters');
    await filters.getByRole('link', { name: 'Open in Requests' }).click();
    await expect(carla).toHaveURL(/\/requests-management\?.*categoryId=.*minAmount=50\.00/);
    await expect(carla.getByRole('table')).toContainText(draft.reference);

    // Other kinds of records, each with its badge.
    await carla.goto('/ai-search?q=' + encodeURIComponent('Skyline Travel'));
    await expect(
      carla.getByRole('list', { name: 'Search results' }).getByRole('link').filter({ hasText: 'Skyline Travel Group' }),
    ).toContainText('Vendor');

    // Phone layout: nothing wider than the screen.
    await carla.setViewportSize(MOBILE);
    await carla.goto('/ai-search?q=' + encodeURIComponent('travel over 50 this month in Foods'));
    await expect(carla.getByTestId('search-filters')).toBeVisible();
    expect(await carla.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
    await expectAccessible(carla);
    await snap(carla, 'ai-search-phone');
    for (const p of [leo, carla]) await p.context().close();
  });

  test('the Ctrl+K palette lists search results under its screens', async ({ browser, request }) => {
    const word = `Quokkafare${Date.now().toString(36)}`;
    const leoApi = await apiAs(request, 'leo');
    const options = (await leoApi.get('/api/requests/options')) as {
      categories: { id: string }[];
      organization: { currency: string };
    };
    const draft = (await leoApi.post('/api/requests', {
      title: `${word} ferry tickets`,
      amount: '18.00',
      currency: options.organization.currency,
      categoryId: options.categories[0]!.id,
    })) as { id: string; reference: string };

    const page = await pageAs(browser, 'leo', '/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.keyboard.press('ControlOrMeta+k');
    const palette = page.getByTestId('command-palette');
    await expect(palette).toBeVisible();
    await palette.getByRole('combobox', { name: 'Screen name' }).fill(word);
    const item = palette.getByRole('option').filter({ hasText: `${draft.reference} ${word} ferry tickets` });
    await expect(item).toBeVisible();
    await expect(palette.getByRole('option', { name: 'All results in AI Search' })).toBeVisible();
    await expectAccessible(page);
    await snap(page, 'ai-search-palette');
    await item.click();
    await expect(page).toHaveURL(new RegExp(`/requests\\?id=${draft.id}`));

    // The screens still come first: "AI Search" by name.
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.keyboard.press('ControlOrMeta+k');
    await palette.getByRole('combobox', { name: 'Screen name' }).fill('AI Search');
    await expect(palette.getByRole('option').first()).toHaveAttribute('data-href', '/ai-search');
    await page.context().close();
  });
});
