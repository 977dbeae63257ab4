import { expect, test, type Page } from '@playwright/test';
import { apiAs, expectAccessible, MOBILE, pageAs, snap } from './fixtures';

// chloe writes to layla; james (head of Meridian Foods Operations) announces to hannah's department.
// Names no other spec uses, so other specs' data does not matter; counts are read before and after.

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

async function badgeCount(page: Page): Promise<number> {
  const badge = page.getByTestId('communications-count');
  return (await badge.count()) === 0 ? 0 : Number(await badge.textContent());
}

test.describe('Communications', () => {
  test('a message arrives live with the unread badge, text stays text, a mention notifies, a file goes through', async ({
    browser,
    request,
  }) => {
    const stamp = Date.now();
    const laylaApi = await apiAs(request, 'layla');
    const before = await laylaApi.get<{ messages: number; announcements: number }>('/api/communications/unread');

    const layla = await pageAs(browser, 'layla', '/communications');
    await expect(layla.getByRole('heading', { level: 1, name: 'Communications' })).toBeVisible();
    await expect(layla.locator('[data-scaffold]')).toHaveCount(0);
    await expect(layla.getByTestId('communications-badge')).toBeVisible();
    await expect.poll(() => badgeCount(layla)).toBe(before.messages + before.announcements);

    const chloe = await pageAs(browser, 'chloe', '/communications');
    await chloe.getByRole('button', { name: 'New conversation' }).click();
    const dialog = chloe.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Start conversation' }).click();
    await expect(dialog.getByText('Choose at least one person')).toBeVisible();
    await dialog.getByLabel('Search people').fill('layla');
    await dialog.getByRole('button', { name: /Layla Nasser/ }).click();
    await dialog.getByLabel('Search people').fill('ravi');
    await dialog.getByRole('button', { name: /Ravi Menon/ }).click();
    await dialog.getByLabel('Group title (optional)').fill(`Tablet rollout ${stamp}`);
    await dialog.getByRole('button', { name: 'Start conversation' }).click();
    await expect(chloe.getByRole('heading', { level: 2, name: `Tablet rollout ${stamp}` })).toBeVisible();

    const text = `<b>not bold</b> @layla can you check the tablets? ${stamp}`;
    await chloe.getByLabel('Message', { exact: true }).fill(text);
    await chloe.getByLabel('Message', { exact: true }).press('Enter');
    await expect(chloe.getByTestId('message').filter({ hasText: String(stamp) })).toBeVisible();
    await expect(chloe.getByLabel('Message', { exact: true })).toHaveValue('');

    // Live on layla's screen: the badge and the conversation's unread count, without a reload.
    await expect.poll(() => badgeCount(layla)).toBe(before.messages + before.announcements + 1);
    const item = layla.getByTestId('conversation-item').filter({ hasText: `Tablet rollout ${stamp}` });
    await expect(item).toContainText('Unread: 1');
    await item.click();
    const shown = layla.getByTestId('message').filter({ hasText: String(stamp) });
    await expect(shown).toContainText('<b>not bold</b>');
    await expect(shown.locator('b')).toHaveCount(0);
    await expect(shown.locator('strong')).toHaveText('@layla');
    // Opened: read, so the counts go back.
    await expect.poll(() => badgeCount(layla)).toBe(before.messages + before.announcements);
    await expect(item).not.toContainText('Unread');

    const notes = await laylaApi.get<{ items: { title: string; link: string }[] }>(
      '/api/notifications?type=message_mention',
    );
    expect(
      notes.items.some(
        (n) =>
          n.title === `Chloe Evans mentioned you in Tablet rollout ${stamp}` &&
          n.link.startsWith('/communications?conversation='),
      ),
    ).toBe(true);

    // A file with a caption, through the storage; layla sees it arrive and can download it.
    await chloe
      .locator('input[type="file"]')
      .setInputFiles({ name: `tablet-quote-${stamp}.pdf`, mimeType: 'application/pdf', buffer: PDF });
    await chloe.getByLabel('Message', { exact: true }).fill('The quote');
    await chloe.getByRole('button', { name: 'Send' }).click();
    const file = layla.getByTestId('message').filter({ hasText: `tablet-quote-${stamp}.pdf` });
    await expect(file).toContainText('The quote');
    const download = layla.waitForEvent('download');
    await file.getByRole('button', { name: new RegExp(`tablet-quote-${stamp}`) }).click();
    expect((await download).suggestedFilename()).toBe(`tablet-quote-${stamp}.pdf`);

    await expectAccessible(layla);
    await snap(layla, 'communications-conversation');
    for (const p of [layla, chloe]) await p.context().close();
  });

  test('an announcement to a department arrives live on a phone, and is marked read', async ({ browser, request }) => {
    const stamp = Date.now();
    const hannahApi = await apiAs(request, 'hannah');
    const before = await hannahApi.get<{ messages: number; announcements: number }>('/api/communications/unread');
    const hannah = await pageAs(browser, 'hannah', '/communications?tab=announcements', MOBILE);
    await expect(hannah.getByRole('tab', { name: /Announcements/, selected: true })).toBeVisible();
    // A requester-level manager cannot publish.
    await expect(hannah.getByRole('button', { name: 'New announcement' })).toHaveCount(0);
    await expect.poll(() => badgeCount(hannah)).toBe(before.messages + before.announcements);

    const james = await pageAs(browser, 'james', '/communications?tab=announcements');
    await james.getByRole('button', { name: 'New announcement' }).click();
    const dialog = james.getByRole('dialog');
    await dialog.getByLabel('Title').fill(`Forklift training ${stamp}`);
    // A department head addresses their department only.
    await dialog.getByRole('combobox', { name: /To/ }).click();
    await expect(james.getByRole('option')).toHaveText(['A department']);
    await james.getByRole('option', { name: 'A department' }).click();
    await dialog.getByRole('combobox', { name: /Department/ }).click();
    await james.getByRole('option', { name: 'Operations' }).click();
    await dialog.getByLabel('Message').fill('Thursday 9:00 at the depot.\n<script>alert(1)</script>');
    await dialog.getByRole('button', { name: 'Publish' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(james.getByTestId('announcement').filter({ hasText: `Forklift training ${stamp}` })).toBeVisible();

    const card = hannah.getByTestId('announcement').filter({ hasText: `Forklift training ${stamp}` });
    await expect(card).toContainText('<script>alert(1)</script>');
    await expect(card).toContainText('New');
    await expect(card).toContainText('James Whitfield · to Meridian Foods · Operations');
    await expect.poll(() => badgeCount(hannah)).toBe(before.messages + before.announcements + 1);
    const width = await hannah.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(MOBILE.width);
    await expectAccessible(hannah);
    await snap(hannah, 'communications-announcements');
    await card.getByRole('button', { name: 'Mark read' }).click();
    await expect(card).not.toContainText('New');
    await expect.poll(() => badgeCount(hannah)).toBe(before.messages + before.announcements);
    await snap(james, 'communications-announcements');
    for (const p of [hannah, james]) await p.context().close();
  });

  test('a conversation on a phone: the list, then the conversation with a way back', async ({ browser, request }) => {
    const stamp = Date.now();
    const chloeApi = await apiAs(request, 'chloe');
    const people = await chloeApi.get<{ items: { id: string; username: string }[] }>(
      '/api/communications/people?q=aisha',
    );
    const aisha = people.items.find((p) => p.username === 'aisha')!;
    const c = await chloeApi.post<{ id: string }>('/api/communications/conversations', { memberIds: [aisha.id] });
    await chloeApi.post(`/api/communications/conversations/${c.id}/messages`, {
      body: `Can you approve the Foods invoices today? ${stamp}`,
    });

    const page = await pageAs(browser, 'aisha', '/communications', MOBILE);
    const item = page.getByTestId('conversation-item').filter({ hasText: 'Chloe Evans' });
    await expect(item).toContainText(String(stamp));
    await snap(page, 'communications-list');
    await item.click();
    await expect(page.getByRole('heading', { level: 2, name: 'Chloe Evans' })).toBeVisible();
    await expect(page.getByTestId('message').filter({ hasText: String(stamp) })).toBeVisible();
    await expect(page.getByTestId('conversation-item').first()).toBeHidden();
    await page.getByLabel('Message', { exact: true }).fill('Done, all three.');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByTestId('message').filter({ hasText: 'Done, all three.' })).toBeVisible();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(MOBILE.width);
    await expectAccessible(page);
    await snap(page, 'communications-conversation');
    await page.getByRole('button', { name: 'Back to conversations' }).click();
    await expect(page.getByTestId('conversation-item').first()).toBeVisible();
    await page.context().close();
  });
});
