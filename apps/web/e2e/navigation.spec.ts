import { expect, test } from '@playwright/test';
import { currentUser, expectAccessible, MOBILE, pageAs, signInAs, snap } from './fixtures';

const MAIN = ['Dashboard', 'New Request', 'Approvals', 'Communications', 'AI Copilot'];

test.describe('desktop navigation', () => {
  test('admin sees Admin and Settings menus with the seed groups; avatar tooltip and menu (adam)', async ({ page }) => {
    const body = await signInAs(page, 'adam');
    const me = await currentUser(page.request, body);
    const nav = page.getByTestId('desktop-nav');
    for (const label of MAIN) await expect(nav.getByRole('link', { name: label, exact: true })).toBeVisible();
    await expect(page.getByRole('banner').getByTestId('role-badge')).toHaveText('Administrator');

    await nav.getByRole('button', { name: 'Admin' }).click();
    const adminMenu = page.getByRole('menu');
    await expect(adminMenu.getByRole('menuitem')).toHaveCount(11);
    await expect(adminMenu.getByRole('menuitem', { name: 'My Requests' })).toBeVisible();
    await expect(adminMenu.getByRole('menuitem', { name: 'Payroll Management' })).toBeVisible();
    await snap(page, 'nav-admin-menu');
    await adminMenu.getByRole('menuitem', { name: 'Payroll Management' }).click();
    await expect(page).toHaveURL('/payroll');
    await expect(page.getByRole('menu')).toHaveCount(0);

    await nav.getByRole('button', { name: 'Settings' }).click();
    const settings = page.getByRole('menu');
    for (const group of ['Users', 'Security', 'Advanced', 'Analytics', 'Other']) {
      await expect(settings.getByRole('group', { name: group })).toBeVisible();
    }
    await expect(settings.getByRole('group', { name: 'Security' }).getByRole('menuitem')).toHaveCount(5);
    await expect(settings.getByRole('menuitem')).toHaveCount(25);
    for (const label of ['Registration Requests', 'Workflow Builder', 'API Integrations']) {
      await expect(settings.getByRole('menuitem', { name: label })).toBeVisible();
    }
    await snap(page, 'nav-settings-menu');
    await settings.getByRole('menuitem', { name: 'Registration Requests' }).click();
    await expect(page).toHaveURL('/registration-management');

    const avatar = page.getByTestId('avatar-button');
    await expect(avatar).toHaveText(`${me.firstName[0]}${me.lastName[0]}`.toUpperCase());
    await avatar.hover();
    const tooltip = page.getByTestId('avatar-tooltip');
    await expect(tooltip).toContainText(`${me.firstName} ${me.lastName}`);
    await expect(tooltip).toContainText(me.email);
    await expect(tooltip).toContainText('Administrator');
    await avatar.click();
    const menu = page.getByRole('menu');
    await expect(menu.getByRole('menuitem')).toHaveText([
      'User Profile',
      'Onboarding Tutorials',
      'Tutorials',
      'Logout',
    ]);
    await snap(page, 'nav-avatar-menu');
    await menu.getByRole('menuitem', { name: 'User Profile' }).click();
    await expect(page).toHaveURL('/profile');
    await expect(page.getByRole('menu')).toHaveCount(0);
  });

  test('a requester sees only the five main items and the avatar menu (rita)', async ({ page }) => {
    await signInAs(page, 'rita');
    const nav = page.getByTestId('desktop-nav');
    await expect(nav.getByRole('link')).toHaveText(MAIN);
    await expect(nav.getByRole('button', { name: 'Admin' })).toHaveCount(0);
    await expect(nav.getByRole('button', { name: 'Settings' })).toHaveCount(0);
    await expect(page.getByRole('banner').getByTestId('role-badge')).toHaveText('Expense Requester');
    await snap(page, 'dashboard-requester');
  });

  test('a screen the role may not use says so instead of failing (rita)', async ({ page }) => {
    await signInAs(page, 'rita', undefined, '/payroll');
    await expect(page.getByTestId('access-restricted')).toBeVisible();
  });
});

test.describe('mobile navigation', () => {
  test.use({ viewport: MOBILE });

  test('bottom bar with four items and More; the sheet holds the rest and closes on navigation (adam)', async ({
    page,
  }) => {
    await signInAs(page, 'adam');
    await expect(page.getByTestId('desktop-nav')).toBeHidden();
    const bar = page.getByTestId('mobile-nav');
    await expect(bar.getByRole('link')).toHaveText(['Dashboard', 'New Request', 'Approvals', 'Communications']);
    await expect(bar.getByRole('button', { name: 'More' })).toBeVisible();
    await snap(page, 'dashboard-admin');

    await bar.getByRole('button', { name: 'More' }).click();
    const sheet = page.getByTestId('more-sheet');
    await expect(sheet).toBeVisible();
    await expect(sheet.getByRole('link', { name: 'AI Copilot' })).toBeVisible();
    await expect(sheet.getByRole('region', { name: 'Admin' })).toBeVisible();
    for (const group of ['Users', 'Security', 'Advanced', 'Analytics', 'Other']) {
      await expect(sheet.getByRole('region', { name: `Settings · ${group}` })).toBeVisible();
    }
    await expect(sheet.getByRole('button', { name: 'Logout' })).toBeVisible();
    await expect(sheet.getByTestId('role-badge')).toHaveText('Administrator');
    await expectAccessible(page);
    await snap(page, 'more-sheet');

    await sheet.getByRole('link', { name: 'Vendor Management' }).click();
    await expect(page).toHaveURL('/vendor-management');
    await expect(page.getByTestId('more-sheet')).toHaveCount(0);
  });

  test('a requester’s sheet has no Admin or Settings groups (rita)', async ({ page }) => {
    await signInAs(page, 'rita');
    await page.getByTestId('mobile-nav').getByRole('button', { name: 'More' }).click();
    const sheet = page.getByTestId('more-sheet');
    await expect(sheet.getByRole('link', { name: 'AI Copilot' })).toBeVisible();
    await expect(sheet.getByRole('region', { name: 'Admin' })).toHaveCount(0);
    await expect(sheet.getByRole('region', { name: /^Settings/ })).toHaveCount(0);
    await sheet.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/auth$/);
  });
});

test.describe('screens the seed names twice', () => {
  test('each says what it is for and links the others of its family', async ({ browser }) => {
    test.setTimeout(120_000);
    const adam = await pageAs(browser, 'adam', '/policy-management');
    const families = [
      ['/new-request', '/advanced-request', '/smart-form'],
      ['/policy-management', '/enhanced-policy-management'],
      ['/user-management', '/enhanced-user-management', '/user-password-management'],
      ['/', '/real-time-monitoring'],
    ];
    for (const family of families) {
      for (const path of family) {
        await adam.goto(path);
        const note = adam.getByTestId('sibling-screens');
        await expect(note).toContainText('This screen:');
        for (const other of family.filter((p) => p !== path))
          await expect(note.locator(`a[href="${other}"]`)).toBeVisible();
      }
    }
    await adam.goto('/enhanced-user-management');
    await adam.getByTestId('sibling-screens').getByRole('link', { name: 'User Password Management' }).click();
    await expect(adam.getByRole('heading', { name: 'User Password Management', level: 1 })).toBeVisible();
    await expectAccessible(adam);
    await snap(adam, 'sibling-screens');
    await adam.setViewportSize(MOBILE);
    await snap(adam, 'sibling-screens');
    await adam.context().close();
  });
});
