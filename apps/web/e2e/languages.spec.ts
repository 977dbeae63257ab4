import { expect, test, type Page } from '@playwright/test';
import {
  apiAs,
  DESKTOP,
  expectAccessible,
  expectNoSidewaysScroll,
  MOBILE,
  pickOption,
  signInAs,
  snap,
} from './fixtures';

/*
 * A person reads Outlay in their language: marie chooses German with German formats, priya Arabic
 * with Arabic-Indic digits (right to left), and paul, who chose nothing, gets his browser's
 * German. Each choice is kept on the server and undone at the end, so every other spec reads English.
 */
async function chooseOnProfile(page: Page, language: string, formats?: string, digits?: string) {
  await page.getByRole('tab', { name: 'Profile Information' }).click();
  await pickOption(page, page.locator('#profile-language'), language);
  if (formats) await pickOption(page, page.locator('#profile-formats'), formats);
  if (digits) await pickOption(page, page.locator('#profile-digits'), digits);
  await page.getByRole('button', { name: 'Save language and formats' }).click();
}

async function followBrowser(page: Page, username: string) {
  const api = await apiAs(page.request, username);
  const profile = await api.get<{ firstName: string; lastName: string; email: string }>('/api/profile');
  await api.put('/api/profile', {
    firstName: profile.firstName,
    lastName: profile.lastName,
    email: profile.email,
    language: null,
    locale: null,
  });
}

test.describe('languages', () => {
  test('marie chooses German with German formats: the frame speaks German and figures read 1.250,00 €', async ({
    page,
  }) => {
    await page.setViewportSize(DESKTOP);
    await signInAs(page, 'marie', undefined, '/profile');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await chooseOnProfile(page, 'Deutsch', 'German (Germany)');
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
    const nav = page.getByRole('navigation', { name: 'Hauptmenü' });
    await expect(nav.getByRole('link', { name: 'Übersicht' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Freigaben' })).toBeVisible();
    await expect(page.getByText('Sprache und Formate', { exact: true })).toBeVisible();
    await expect(page.getByTestId('format-preview')).toContainText('1.250,00 €');
    await expect(page.getByTestId('format-preview')).toContainText('06.12.2026');
    // Kept on the server: a new page load reads it back.
    await page.reload();
    await expect(
      page.getByRole('navigation', { name: 'Hauptmenü' }).getByRole('link', { name: 'Übersicht' }),
    ).toBeVisible();
    await expectAccessible(page);
    await snap(page, 'languages-german');
    await page.setViewportSize(MOBILE);
    const mobile = page.getByRole('navigation', { name: 'Mobilmenü' });
    await expect(mobile.getByRole('link', { name: 'Übersicht' })).toBeVisible();
    await expectNoSidewaysScroll(page);
    await snap(page, 'languages-german');
    await followBrowser(page, 'marie');
  });

  test('priya chooses Arabic with Arabic-Indic digits: the page runs right to left', async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await signInAs(page, 'priya', undefined, '/profile');
    await chooseOnProfile(page, 'العربية', 'Arabic (United Arab Emirates)', 'Arabic-Indic (٠١٢٣٤٥٦٧٨٩)');
    await expect(page.locator('html')).toHaveAttribute('lang', 'ar');
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(
      page.getByRole('navigation', { name: 'القائمة الرئيسية' }).getByRole('link', { name: 'لوحة المعلومات' }),
    ).toBeVisible();
    await expect(page.getByTestId('format-preview')).toContainText('١٬٢٥٠٫٠٠');
    // The brand sits at the right edge of a right-to-left page.
    const brand = await page.getByRole('link', { name: 'الصفحة الرئيسية لـ Outlay' }).boundingBox();
    expect(brand!.x).toBeGreaterThan(DESKTOP.width / 2);
    await expectAccessible(page);
    await snap(page, 'languages-arabic');
    await page.setViewportSize(MOBILE);
    await expect(page.getByRole('navigation', { name: 'قائمة الجوال' })).toBeVisible();
    await expectNoSidewaysScroll(page);
    await snap(page, 'languages-arabic');
    await followBrowser(page, 'priya');
  });

  test.describe('with a German browser', () => {
    test.use({ locale: 'de-DE' });

    test('paul, who chose nothing, reads his browser’s German', async ({ page }) => {
      await page.setViewportSize(DESKTOP);
      // The server answers with the language it resolved from the browser's Accept-Language.
      const answer = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/auth/user' && r.ok());
      await signInAs(page, 'paul', undefined, '/');
      expect(await (await answer).json()).toMatchObject({ language: 'de', locale: 'de-DE' });
      await expect(page.locator('html')).toHaveAttribute('lang', 'de');
      await expect(
        page.getByRole('navigation', { name: 'Hauptmenü' }).getByRole('link', { name: 'Neuer Antrag' }),
      ).toBeVisible();
    });
  });
});
