import { expect, test, type Page } from '@playwright/test';
import { DESKTOP, expectAccessible, expectToast, MOBILE, snap } from './fixtures';

const unique = () => `e2e.${Date.now()}.${Math.floor(Math.random() * 1e6)}`;

async function fill(page: Page, values: Partial<Record<'first' | 'last' | 'email' | 'password' | 'confirm', string>>) {
  if (values.first !== undefined) await page.getByLabel('First Name').fill(values.first);
  if (values.last !== undefined) await page.getByLabel('Last Name').fill(values.last);
  if (values.email !== undefined) await page.getByLabel('Work Email').fill(values.email);
  if (values.password !== undefined) await page.getByLabel('Password', { exact: true }).fill(values.password);
  if (values.confirm !== undefined) await page.getByLabel('Confirm Password').fill(values.confirm);
}

async function chooseRole(page: Page, label: string) {
  await page.getByRole('combobox', { name: 'Requested Role' }).click();
  await page.getByRole('option', { name: label, exact: true }).click();
}

test.describe('registration', () => {
  test('shows the five authorized domains, the role note and passes axe', async ({ page }) => {
    await page.goto('/register');
    await expect(page.getByRole('heading', { name: 'Request Access' })).toBeVisible();
    await expect(page.getByTestId('domain-chips').getByRole('listitem')).toHaveCount(5);
    await expect(page.getByTestId('domain-chips')).toContainText('meridiangroup.com');
    await expect(page.getByText("final role assignment is at the administrator's discretion")).toBeVisible();
    const box = await page.getByLabel('Message (optional)').boundingBox();
    expect(box!.height).toBeGreaterThanOrEqual(100);
    await expect(page.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/api/login');
    await expectAccessible(page);
    await snap(page, 'register');
    await page.setViewportSize(MOBILE);
    await snap(page, 'register');
    await page.setViewportSize(DESKTOP);
  });

  test('offers the 15 requestable roles', async ({ page }) => {
    await page.goto('/register');
    await page.getByRole('combobox', { name: 'Requested Role' }).click();
    await expect(page.getByRole('option')).toHaveCount(15);
    await expect(page.getByRole('option', { name: 'Expense Requester' })).toBeVisible();
    await page.keyboard.press('Escape');
  });

  test('shows every validation message', async ({ page }) => {
    await page.goto('/register');
    const form = page.getByRole('form', { name: 'Registration request' });
    await fill(page, { first: 'N', last: 'N', email: 'not-an-email', password: 'abc', confirm: 'abd' });
    await page.getByRole('button', { name: 'Submit Request' }).click();
    await expect(form.getByText('First name must be at least 2 characters')).toBeVisible();
    await expect(form.getByText('Last name must be at least 2 characters')).toBeVisible();
    await expect(form.getByText('Please enter a valid email address')).toBeVisible();
    await expect(form.getByText('Password must be at least 8 characters', { exact: true })).toBeVisible();
    await expect(form.getByText('Please select a role')).toBeVisible();
    await expectToast(page, 'Validation Error');

    await fill(page, {
      first: 'Nora',
      last: 'Newhire',
      email: 'nora@gmail.com',
      password: 'abcdefgh',
      confirm: 'abcdefgh',
    });
    await chooseRole(page, 'Expense Requester');
    await page.getByRole('button', { name: 'Submit Request' }).click();
    await expect(form.getByText('Email must be from an authorized domain')).toBeVisible();
    await expect(
      form.getByText('Password must contain at least one uppercase letter, one lowercase letter, and one number'),
    ).toBeVisible();

    await fill(page, { email: 'nora@meridianfoods.com', password: 'Welcome1x', confirm: 'Welcome1y' });
    await page.getByRole('button', { name: 'Submit Request' }).click();
    await expect(form.getByText("Passwords don't match")).toBeVisible();
  });

  test('submits, shows Request Submitted, and refuses a second pending request', async ({ page }) => {
    const email = `${unique()}@meridianlogistics.com`;
    await page.goto('/register');
    await fill(page, { first: 'Nora', last: 'Newhire', email, password: 'Welcome1x', confirm: 'Welcome1x' });
    await chooseRole(page, 'Manager');
    await page.getByLabel('Message (optional)').fill('Joining Logistics finance next month.');
    await page.getByRole('button', { name: 'Submit Request' }).click();
    await expectToast(
      page,
      'Registration Request Submitted',
      'Your request has been submitted and will be reviewed by an administrator',
    );
    await expect(page.getByRole('heading', { name: 'Request Submitted' })).toBeVisible();
    await snap(page, 'register-submitted');
    await page.getByRole('link', { name: 'Return to Home' }).click();
    await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible();

    await page.goto('/register');
    await fill(page, { first: 'Nora', last: 'Newhire', email, password: 'Welcome1x', confirm: 'Welcome1x' });
    await chooseRole(page, 'Manager');
    await page.getByRole('button', { name: 'Submit Request' }).click();
    await expectToast(page, 'Request Already Exists', 'You already have a pending registration request');
  });

  test('the Sign in link goes through /api/login to the sign-in screen', async ({ page }) => {
    await page.goto('/register');
    await page.getByRole('link', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/auth$/);
    await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible();
  });
});
