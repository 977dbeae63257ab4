import { expect, test, type Page } from '@playwright/test';
import { TOTP } from 'otpauth';
import { expectAccessible, expectToast, MOBILE, signInAs, signInWithForm, snap } from './fixtures';

function totpFor(secret: string) {
  return new TOTP({ secret, digits: 6, period: 30, algorithm: 'SHA1' });
}

/** The server accepts a code once per 30 s step, so wait for a fresh step before reusing the secret. */
async function freshCode(page: Page, secret: string, usedStep: number) {
  while (Math.floor(Date.now() / 30_000) <= usedStep) await page.waitForTimeout(1000);
  return { code: totpFor(secret).generate(), step: Math.floor(Date.now() / 30_000) };
}

test.describe.serial('two-factor (klara)', () => {
  let secret = '';
  let recoveryCodes: string[] = [];
  let lastStep = 0;

  test('setup: QR, key, 6-digit field, apps, wrong code, enable, recovery codes, success', async ({ page }) => {
    await signInAs(page, 'klara', undefined, '/setup-2fa');
    await expect(page.getByRole('heading', { name: 'Set Up Two-Factor Authentication' })).toBeVisible();
    await expect(page.getByTestId('totp-qr')).toBeVisible();
    secret = (await page.getByTestId('totp-secret').textContent())!.trim();
    expect(secret).toMatch(/^[A-Z2-7]+=*$/);
    for (const app of ['Google Authenticator', 'Microsoft Authenticator', 'Authy', '1Password']) {
      await expect(page.getByText(app, { exact: true })).toBeVisible();
    }
    await expect(page.getByRole('button', { name: 'Skip for Now' })).toBeVisible();
    const enable = page.getByRole('button', { name: 'Enable 2FA' });
    const field = page.getByLabel('Verification code');
    await expect(enable).toBeDisabled();
    await field.fill('12ab34');
    await expect(field).toHaveValue('1234');
    await expect(enable).toBeDisabled();
    await expectAccessible(page);
    await snap(page, 'setup-2fa');
    await page.setViewportSize(MOBILE);
    await snap(page, 'setup-2fa');
    await page.setViewportSize({ width: 1280, height: 800 });

    const wrong = totpFor(secret).generate() === '000000' ? '111111' : '000000';
    await field.fill(wrong);
    await enable.click();
    await expectToast(page, 'Verification Failed', 'Invalid code. Please try again.');

    await field.fill(totpFor(secret).generate());
    lastStep = Math.floor(Date.now() / 30_000);
    await enable.click();
    await expect(page.getByRole('heading', { name: 'Save Your Recovery Codes' })).toBeVisible();
    recoveryCodes = (await page.getByTestId('recovery-codes').getByRole('listitem').allTextContents()).map((c) =>
      c.trim(),
    );
    expect(recoveryCodes).toHaveLength(10);
    await snap(page, 'setup-2fa-recovery-codes');
    await page.getByRole('button', { name: "I've saved my recovery codes" }).click();
    await expect(page.getByRole('heading', { name: 'Two-Factor Authentication Enabled' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Continue to Dashboard' })).toBeVisible();
    await expect(page).toHaveURL('/', { timeout: 5000 });
  });

  test('sign-in asks for the code: wrong code, recovery code, then an authenticator code', async ({ page }) => {
    test.setTimeout(120_000);
    await signInWithForm(page, 'klara');
    await expect(page.getByRole('heading', { name: 'Two-Factor Authentication' })).toBeVisible();
    const verify = page.getByRole('button', { name: 'Verify' });
    await expect(verify).toBeDisabled();
    await expectAccessible(page);
    await snap(page, 'sign-in-2fa');
    await page.getByLabel('Authentication code').fill('000000');
    await verify.click();
    await expectToast(page, 'Verification Failed', 'Invalid code. Please try again.');

    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await page.getByLabel('Recovery code').fill(recoveryCodes[0]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page).toHaveURL('/');
    await expect(page.getByRole('heading', { name: /, Klara$/ })).toBeVisible();

    await page.evaluate(() => localStorage.clear());
    await signInWithForm(page, 'klara');
    const { code } = await freshCode(page, secret, lastStep);
    await page.getByLabel('Authentication code').fill(code);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page).toHaveURL('/');
    await expect(page.getByRole('heading', { name: /, Klara$/ })).toBeVisible();
  });
});
