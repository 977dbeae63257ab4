import { expect, test, type Browser, type Page } from '@playwright/test';
import { DESKTOP, MOBILE, apiLogin, expectAccessible, expectToast, signInAs, snap } from './fixtures';

/**
 * Who may do what, and the record of it: custom roles change a person's access on
 * their next request; the security settings save; the audit chain verifies.
 * Accounts: adam administers; paul (a staff requester) receives a custom role and loses it again at the end, so rita stays a plain requester for the specs that check refusals.
 */

/** A page in its own context (axe needs one), i.e. its own browser session. */
async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: DESKTOP });
  return context.newPage();
}

async function adminPage(browser: Browser, path: string): Promise<Page> {
  const page = await newPage(browser);
  await signInAs(page, 'adam', undefined, path);
  return page;
}

test("an admin creates a custom role and assigns it, and the user's menu and access change", async ({ browser }) => {
  const paul = await newPage(browser);
  await signInAs(paul, 'paul', undefined, '/audit-history');
  await expect(paul.getByTestId('access-restricted')).toBeVisible();

  const adam = await adminPage(browser, '/custom-roles');
  await expect(adam.getByRole('heading', { name: 'Custom Roles' })).toBeVisible();
  await expectAccessible(adam);
  await adam.getByRole('button', { name: 'New custom role' }).click();
  const dialog = adam.getByRole('dialog');
  await dialog.getByLabel('Name').fill('E2E Auditor');
  await dialog.getByLabel('Description').fill('Reads the audit history for the group');
  await dialog.getByRole('combobox', { name: 'Scope' }).click();
  await adam.getByRole('option', { name: 'Whole group' }).click();
  // Create without permissions: the contract's message is shown.
  await dialog.getByRole('button', { name: 'Create role' }).click();
  await expect(dialog.getByText('Choose at least one permission')).toBeVisible();
  await dialog.getByLabel('Read the audit history').check();
  await dialog.getByLabel('See reports and analytics').check();
  // A permission adam does not hold cannot be ticked.
  await expect(dialog.getByLabel('Approve payroll runs')).toBeDisabled();
  await snap(adam, 'access-custom-role-form');
  await dialog.getByRole('button', { name: 'Create role' }).click();
  await expectToast(adam, 'Custom role created', 'E2E Auditor');
  const row = adam.getByRole('row', { name: /E2E Auditor/ });
  await expect(row).toBeVisible();

  await row.getByRole('button', { name: 'Actions for E2E Auditor' }).click();
  await adam.getByRole('menuitem', { name: 'Assign to people…' }).click();
  const assign = adam.getByRole('dialog');
  await assign.getByRole('searchbox').fill('schneider');
  await assign.getByRole('button', { name: 'Assign E2E Auditor to Paul Schneider' }).click();
  await expectToast(adam, 'E2E Auditor assigned to Paul');
  await expect(assign.getByRole('button', { name: 'Remove E2E Auditor from Paul Schneider' })).toBeVisible();
  await assign.getByRole('button', { name: 'Close' }).click();
  await expect(assign).toBeHidden();
  await expect(adam.getByRole('row', { name: /E2E Auditor/ })).toContainText('1');
  await snap(adam, 'access-custom-roles');

  // Paul's next request carries the new grant: the screen opens instead of the restricted panel.
  await paul.reload();
  await expect(paul.getByRole('heading', { name: 'Audit History' })).toBeVisible();
  await expect(paul.getByTestId('access-restricted')).toHaveCount(0);
  await expect(paul.getByRole('table', { name: 'Audit events' })).toBeVisible();

  // The role screen shows him with the custom role; removing it closes the screen again.
  await adam.goto('/role-management');
  await adam.getByRole('button', { name: /Expense Requester/ }).click();
  const paulRow = adam.getByRole('row', { name: /Paul Schneider/ });
  await expect(paulRow).toContainText('E2E Auditor');
  await expectAccessible(adam);
  await snap(adam, 'access-role-management');
  await paulRow.getByRole('button', { name: 'Actions for Paul Schneider' }).click();
  await adam.getByRole('menuitem', { name: 'Custom role…' }).click();
  const customDialog = adam.getByRole('dialog');
  await customDialog.getByRole('combobox', { name: 'Custom role' }).click();
  await adam.getByRole('option', { name: 'No custom role' }).click();
  await customDialog.getByRole('button', { name: 'Save' }).click();
  await expectToast(adam, 'Custom role removed from Paul');
  await paul.reload();
  await expect(paul.getByTestId('access-restricted')).toBeVisible();

  // Changing his role offers only the roles an administrator may grant (none holding payroll approval).
  await paulRow.getByRole('button', { name: 'Actions for Paul Schneider' }).click();
  await adam.getByRole('menuitem', { name: 'Change role…' }).click();
  const roleDialog = adam.getByRole('dialog');
  await roleDialog.getByRole('combobox', { name: 'Role' }).click();
  await expect(adam.getByRole('option', { name: 'Manager', exact: true })).toBeVisible();
  await expect(adam.getByRole('option', { name: 'Expense Requester', exact: true })).toBeVisible();
  for (const ungrantable of ['Owner', 'CFO', 'Group CFO'])
    await expect(adam.getByRole('option', { name: ungrantable, exact: true })).toHaveCount(0);
  await adam.getByRole('option', { name: 'Manager', exact: true }).click();
  await expect(roleDialog.getByRole('combobox', { name: 'Role' })).toContainText('Manager');
  await snap(adam, 'access-change-role');
  // Cancelled: nothing changes.
  await roleDialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(roleDialog).toBeHidden();

  await adam.setViewportSize(MOBILE);
  await adam.goto('/role-management');
  await expect(adam.getByRole('heading', { name: 'Role Management' })).toBeVisible();
  await snap(adam, 'access-role-management');
  await adam.goto('/custom-roles');
  // On a phone the custom roles are cards, not table rows.
  await expect(adam.getByRole('listitem').filter({ hasText: 'E2E Auditor' })).toBeVisible();
  await snap(adam, 'access-custom-roles');
  await paul.context().close();
  await adam.context().close();
});

test('an admin edits the security settings and they are saved and audited', async ({ browser }) => {
  const adam = await adminPage(browser, '/security');
  await expect(adam.getByRole('heading', { name: 'Security Settings' })).toBeVisible();
  const duration = adam.getByLabel('Lockout duration (minutes)');
  await expect(duration).toHaveValue('15');
  await expectAccessible(adam);
  await snap(adam, 'access-security-settings');

  await adam.getByLabel('Minimum password length').fill('6');
  await adam.getByRole('button', { name: 'Save settings' }).click();
  await expect(adam.getByText('Minimum password length must be at least 8')).toBeVisible();
  await adam.getByLabel('Minimum password length').fill('8');
  await duration.fill('20');
  await adam.getByRole('button', { name: 'Save settings' }).click();
  await expectToast(adam, 'Security settings saved');
  await adam.reload();
  await expect(adam.getByLabel('Lockout duration (minutes)')).toHaveValue('20');

  // The change is in the audit history with its before and after.
  await adam.goto('/audit-history?action=security.settings_updated');
  await adam
    .getByRole('row', { name: /security\.settings_updated/ })
    .first()
    .click();
  const detail = adam.getByRole('dialog');
  await expect(detail.getByRole('heading', { name: 'Settings: Security settings changed' })).toBeVisible();
  const changed = detail.locator('tr[data-changed]');
  await expect(changed).toHaveCount(1);
  // The setting by its name, its values with their unit.
  await expect(changed).toContainText('Lockout');
  await expect(changed).not.toContainText('Lockout minutes');
  await expect(changed).toContainText('15 minutes');
  await expect(changed).toContainText('20 minutes');
  await expectAccessible(adam);
  await snap(adam, 'access-audit-diff');
  await adam.keyboard.press('Escape');

  // Put it back for the other specs.
  await adam.goto('/security');
  await adam.getByLabel('Lockout duration (minutes)').fill('15');
  await adam.getByRole('button', { name: 'Save settings' }).click();
  await expectToast(adam, 'Security settings saved');

  await adam.setViewportSize(MOBILE);
  await adam.reload();
  await expect(adam.getByLabel('Lockout duration (minutes)')).toHaveValue('15');
  await snap(adam, 'access-security-settings');
  await adam.context().close();
});

test('the audit history verifies its chain; sign-in activity shows attempts and 2FA adoption', async ({
  browser,
  request,
}) => {
  // A failed attempt to find in the activity list.
  const failed = await request.post('/api/auth/login', {
    data: { username: 'e2e-nobody', password: 'wrong-password' },
  });
  expect(failed.status()).toBe(401);
  await apiLogin(request, 'adam');

  const adam = await adminPage(browser, '/audit-history');
  await expect(adam.getByRole('heading', { name: 'Audit History' })).toBeVisible();
  await adam.getByRole('button', { name: 'Verify integrity' }).click();
  await expect(adam.getByText(/Integrity verified: all [\d,]+ events link up/)).toBeVisible();
  await expectAccessible(adam);
  await snap(adam, 'access-audit-history');

  await adam.goto('/auth-security');
  await expect(adam.getByRole('heading', { name: 'Auth Security' })).toBeVisible();
  await expect(adam.getByRole('list', { name: 'Two-factor adoption per role' })).toContainText('Administrator');
  // The search is debounced: wait for its answer, not just for a row that may already be listed.
  await Promise.all([
    adam.waitForResponse((r) => r.url().includes('q=e2e-nobody') && r.ok()),
    adam.getByRole('searchbox').fill('e2e-nobody'),
  ]);
  const attempt = adam.getByRole('row', { name: /e2e-nobody/ });
  await expect(attempt).toContainText('Failed');
  await expect(attempt).toContainText('Unknown user');
  await expectAccessible(adam);
  await snap(adam, 'access-auth-security');

  await adam.setViewportSize(MOBILE);
  await adam.goto('/audit-history');
  await adam.getByRole('button', { name: 'Verify integrity' }).click();
  await expect(adam.getByText(/Integrity verified/)).toBeVisible();
  await snap(adam, 'access-audit-history');
  await adam.goto('/auth-security');
  await expect(adam.getByRole('heading', { name: 'Auth Security' })).toBeVisible();
  await snap(adam, 'access-auth-security');
  await adam.context().close();
});
