import { expect, test, type Locator, type Page } from '@playwright/test';
import { expectAccessible, expectNoSidewaysScroll, MOBILE, pageAs, snap } from './fixtures';

/**
 * The seed gives the cfo the Settings menu: carla opens every screen in it and reads its data,
 * with a note that it is read-only for her and none of the controls that change anything; adam
 * (admin) still has them.
 */

/** Names a control that changes something starts with, on any of these screens. */
const CHANGING =
  /^(New |Create|Save|Delete|Edit|Unlock|Approve|Reject|Link vendor|Add rate|Move|Download|Mark resolved|Reopen|Sign out|Reset|Force|Activate|Deactivate|Change role|Restore|Rotate|Revoke|Import|Simulate|Run simulation)/;

interface Screen {
  path: string;
  heading: string;
  /** Something of the screen's data carla must see. */
  data: (page: Page) => Locator;
  /** Whether the note is expected (carla holds audit.read, so Audit History is hers in full). */
  note?: boolean;
  /** Row menus a reader keeps (a rule's version history, an error's details). */
  rowMenus?: boolean;
}

function screens(registration: string, error: string): Screen[] {
  return [
    { path: '/user-management', heading: 'User Management', data: (p) => p.getByText('Max Fischer') },
    { path: '/registration-management', heading: 'Registration Requests', data: (p) => p.getByText(registration) },
    { path: '/enhanced-user-management', heading: 'Enhanced User Management', data: (p) => p.getByText('Max Fischer') },
    { path: '/user-sessions', heading: 'User Sessions', data: (p) => p.getByText('This device') },
    {
      path: '/role-management',
      heading: 'Role Management',
      data: (p) => p.getByRole('heading', { name: 'Everyone you can see' }),
    },
    { path: '/user-password-management', heading: 'User Password Management', data: (p) => p.getByText('Max Fischer') },
    { path: '/auth-security', heading: 'Auth Security', data: (p) => p.getByText('carla', { exact: true }) },
    { path: '/security', heading: 'Security Settings', data: (p) => p.getByText('Minimum password length') },
    {
      path: '/audit-history',
      heading: 'Audit History',
      data: (p) => p.getByRole('table').getByRole('row').nth(1),
      note: false,
    },
    { path: '/backup-management', heading: 'Backup Management', data: (p) => p.getByText('Scheduled backups to keep') },
    { path: '/error-reports', heading: 'Error Reports', data: (p) => p.getByText(error), rowMenus: true },
    { path: '/policy-management', heading: 'Policy Management', data: (p) => p.getByText('Meals limit per request') },
    {
      path: '/enhanced-policy-management',
      heading: 'Enhanced Policy Management',
      data: (p) => p.getByText('Meals limit per request'),
      rowMenus: true,
    },
    { path: '/workflow-customization', heading: 'Workflow Builder', data: (p) => p.getByText('Standard approval') },
    {
      path: '/integration-ecosystem',
      heading: 'API Integrations',
      data: (p) => p.getByText('API reference and accounting export'),
    },
    {
      path: '/advanced-organization-management',
      heading: 'Advanced Organization Management',
      data: (p) => p.getByText('Meridian Logistics'),
    },
  ];
}

async function expectReadOnly(page: Page, s: Screen) {
  await page.goto(s.path);
  await expect(page.getByRole('heading', { name: s.heading, level: 1 })).toBeVisible();
  // The table or, on a phone, the cards: whichever is shown.
  await expect(s.data(page).filter({ visible: true }).first()).toBeVisible();
  await expect(page.getByText('no access', { exact: false })).toHaveCount(0);
  if (s.note === false) await expect(page.getByRole('note')).toHaveCount(0);
  else await expect(page.getByRole('note')).toContainText('Read-only for your role');
  await expect(page.getByRole('main').getByRole('button', { name: CHANGING })).toHaveCount(0);
  if (!s.rowMenus) await expect(page.getByRole('button', { name: /^Actions for / })).toHaveCount(0);
}

test.describe('the Settings menu for a cfo', () => {
  test('carla opens every Settings-menu screen read-only, sees its data and no control that changes anything', async ({
    browser,
  }) => {
    test.setTimeout(240_000);
    const stamp = Date.now();
    const carla = await pageAs(browser, 'carla', '/user-management');
    // Her own data to find on two screens: a registration waiting for review, and an error.
    const registration = `Nora Reader${stamp}`;
    const asked = await carla.request.post('/api/registration-requests', {
      data: {
        firstName: 'Nora',
        lastName: `Reader${stamp}`,
        email: `nora.reader.${stamp}@meridiangroup.com`,
        requestedRole: 'requester',
        password: 'Correct-Horse-42!',
        message: 'New in accounts',
      },
    });
    expect(asked.status(), await asked.text()).toBe(201);
    const error = `Settings reader check ${stamp}`;
    const reported = await carla.request.post('/api/error-reports', { data: { message: error, route: '/security' } });
    expect(reported.ok(), await reported.text()).toBe(true);

    const all = screens(registration, error);
    // Every screen of her Settings menu is here, and nothing else.
    await carla.goto('/');
    await carla.getByTestId('desktop-nav').getByRole('button', { name: 'Settings' }).click();
    const menu = carla.getByRole('menu');
    for (const s of all) await expect(menu.getByRole('menuitem', { name: s.heading, exact: true })).toBeVisible();
    await carla.keyboard.press('Escape');

    for (const s of all) await expectReadOnly(carla, s);

    // The rules' version history is a read she keeps; their changes are not in the menu.
    await carla.goto('/enhanced-policy-management');
    await carla.getByRole('button', { name: 'Actions for Meals limit per request' }).first().click();
    await expect(carla.getByRole('menuitem', { name: 'Version history' })).toBeVisible();
    await expect(carla.getByRole('menuitem', { name: /Edit|Delete|Deactivate|Activate/ })).toHaveCount(0);
    await carla.keyboard.press('Escape');

    // Advanced Organization Management's other tabs: the settings as text, the links and rates without their controls.
    await carla.goto('/advanced-organization-management');
    await carla.getByRole('tab', { name: 'Settings' }).click();
    await expect(carla.getByText('Fiscal year starts in')).toBeVisible();
    await expect(carla.getByRole('textbox')).toHaveCount(0);
    for (const tab of ['Intercompany', 'FX rates']) {
      await carla.getByRole('tab', { name: tab }).click();
      await expect(carla.getByRole('tabpanel').getByRole('table')).toBeVisible();
      await expect(carla.getByRole('main').getByRole('button', { name: CHANGING })).toHaveCount(0);
      await expect(carla.getByRole('button', { name: /^Actions for / })).toHaveCount(0);
    }

    // An error's details open; resolving it does not.
    await carla.goto('/error-reports');
    await carla
      .getByRole('button', { name: `Actions for ${error}` })
      .first()
      .click();
    await carla.getByRole('menuitem', { name: 'View details' }).click();
    const details = carla.getByRole('dialog');
    await expect(details).toContainText(error);
    await expect(details.getByRole('button', { name: /Mark resolved|Reopen/ })).toHaveCount(0);
    await carla.keyboard.press('Escape');

    // A session's device shows as far as the screen shows it, whoever reads it.
    await carla.goto('/user-sessions');
    await expect(carla.getByText(/^Device [0-9a-f-]{1,8}$/).first()).toBeVisible();

    const shots = [
      '/user-management',
      '/security',
      '/backup-management',
      '/workflow-customization',
      '/advanced-organization-management',
    ];
    for (const path of shots) {
      await carla.goto(path);
      await expect(carla.getByRole('note')).toBeVisible();
      await expectAccessible(carla);
      await snap(carla, `settings-read-only${path.replace('/', '-')}`);
    }
    await carla.setViewportSize(MOBILE);
    for (const path of shots) {
      await carla.goto(path);
      await expect(carla.getByRole('note')).toBeVisible();
      await expectNoSidewaysScroll(carla);
      await snap(carla, `settings-read-only${path.replace('/', '-')}`);
    }
    await carla.context().close();
  });

  test('adam (admin) still has every control and no read-only note', async ({ browser }) => {
    test.setTimeout(120_000);
    const adam = await pageAs(browser, 'adam', '/user-management');
    const controls: Array<[path: string, button: string]> = [
      ['/user-management', 'New user'],
      ['/security', 'Save settings'],
      ['/backup-management', 'Create backup now'],
      ['/policy-management', 'New rule'],
      ['/workflow-customization', 'New workflow'],
      ['/integration-ecosystem', 'New API key'],
    ];
    for (const [path, button] of controls) {
      await adam.goto(path);
      await expect(adam.getByRole('button', { name: button }).first()).toBeVisible();
      await expect(adam.getByRole('note')).toHaveCount(0);
    }
    await adam.goto('/user-sessions');
    await expect(adam.getByRole('button', { name: /^Actions for / }).first()).toBeVisible();
    await adam.context().close();
  });
});
