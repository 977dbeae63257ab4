import { expect, test, type Page } from '@playwright/test';
import ICAL from 'ical.js';
import { expectAccessible, MOBILE, signInAs, snap } from './fixtures';

function icsFile(marker: string) {
  const text = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Test//Calendar//EN',
    'BEGIN:VEVENT',
    `UID:summit-${marker}@example.com`,
    'DTSTAMP:20261101T090000Z',
    'DTSTART;VALUE=DATE:20270308',
    'DTEND;VALUE=DATE:20270311',
    `SUMMARY:Summit ${marker}`,
    'LOCATION:Ahoy\\, Rotterdam',
    'END:VEVENT',
    'BEGIN:VEVENT',
    `UID:visit-${marker}@example.com`,
    'DTSTAMP:20261101T090000Z',
    'DTSTART:20270301T090000Z',
    'DTEND:20270301T110000Z',
    'RRULE:FREQ=WEEKLY;COUNT=4',
    `SUMMARY:Supplier visit ${marker}`,
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');
  return { name: 'events.ics', mimeType: 'text/calendar', buffer: Buffer.from(text, 'utf8') };
}

async function chooseFile(page: Page, marker: string) {
  await page.getByLabel('Calendar file (.ics)').setInputFiles(icsFile(marker));
  await expect(page.getByTestId('import-event')).toHaveCount(2);
}

/*
 * rita makes her private link, fetches it as a calendar app would (no sign-in) and reads it with
 * ical.js; then imports two events from an .ics file, sees them first, confirms, and finds the
 * drafts on My Requests.
 */
test.describe('calendar integration (rita)', () => {
  test('subscribe link, its feed, and an .ics import that becomes drafts', async ({ page }) => {
    const marker = Math.random().toString(36).slice(2, 10);
    await signInAs(page, 'rita', undefined, '/calendar-integration');
    await expect(page.getByRole('heading', { level: 1, name: 'Calendar Integration' })).toBeVisible();
    await expect(page.locator('[data-scaffold]')).toHaveCount(0);
    await expect(page.getByText('Google Calendar:')).toBeVisible();

    const make = page.getByRole('button', { name: 'Make my calendar link' });
    const regenerate = page.getByRole('button', { name: 'Make a new link' });
    await expect(make.or(regenerate)).toBeVisible();
    if (await make.isVisible()) {
      await make.click();
    } else {
      await regenerate.click();
      await page.getByRole('dialog').getByRole('button', { name: 'Make a new link' }).click();
    }
    const shown = page.getByTestId('calendar-link');
    await expect(shown).toContainText('/api/calendar/');
    const link = (await shown.innerText()).trim();
    expect(link).toMatch(/^https?:\/\/[^/]+\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);

    // A calendar app sends no Authorization header: the link alone must do.
    const feed = await page.request.get(link);
    expect(feed.status()).toBe(200);
    expect(feed.headers()['content-type']).toBe('text/calendar; charset=utf-8');
    const root = new ICAL.Component(ICAL.parse(await feed.text()) as unknown[]);
    expect(root.name).toBe('vcalendar');
    expect(root.getFirstPropertyValue('x-wr-calname')).toBe('Outlay');
    for (const event of root.getAllSubcomponents('vevent')) {
      for (const prop of ['uid', 'dtstamp', 'dtstart', 'summary']) expect(event.hasProperty(prop)).toBe(true);
    }
    await expect(page.getByRole('heading', { name: 'Next 30 days' })).toBeVisible();
    await expect(page.getByTestId('upcoming-events').or(page.getByTestId('upcoming-empty'))).toBeVisible();
    await expectAccessible(page);
    await snap(page, 'calendar-integration');

    await chooseFile(page, marker);
    const preview = page.getByTestId('import-preview');
    await expect(preview).toContainText('Nothing has been created yet');
    await expect(preview).toContainText(`Summit ${marker}`);
    await expect(preview).toContainText('Ahoy, Rotterdam');
    await expect(preview).toContainText('Repeats: first occurrence only');
    await page.getByLabel(`Amount for Summit ${marker}`).fill('1450');
    await page.getByLabel(`Amount for Supplier visit ${marker}`).fill('80');
    await expectAccessible(page);
    await snap(page, 'calendar-import-preview');
    await page.getByRole('button', { name: 'Create 2 drafts' }).click();
    const result = page.getByTestId('import-result');
    await expect(result).toContainText('Created 2 draft requests');
    await expect(result).toContainText(`Summit ${marker}`);

    await result.getByRole('link', { name: 'Open My Requests' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'My Requests' })).toBeVisible();
    await page.getByRole('searchbox').fill(marker);
    const table = page.getByRole('table', { name: 'My requests' });
    await expect(table.getByRole('row').filter({ hasText: marker })).toHaveCount(2);
    await expect(table.getByRole('row').filter({ hasText: `Summit ${marker}` })).toContainText('Draft');
  });

  test('phone layout', async ({ page }) => {
    await page.setViewportSize(MOBILE);
    await signInAs(page, 'rita', undefined, '/calendar-integration');
    await expect(page.getByRole('heading', { level: 1, name: 'Calendar Integration' })).toBeVisible();
    await expect(page.getByTestId('calendar-link-state').or(page.getByTestId('calendar-link'))).toBeVisible();
    await chooseFile(page, Math.random().toString(36).slice(2, 10));
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await snap(page, 'calendar-integration');
  });
});
