import { describe, expect, it } from 'vitest';
import { ADMIN_ITEMS, AVATAR_ITEMS, MAIN_ITEMS, seesAdminMenus, SETTINGS_GROUPS } from './layout/nav-model';
import { resolveRoute } from './resolve-route';
import { permissionsOf } from '@outlay/contracts/permissions';
import { screensFor } from '@/lib/route-catalogue';
import { ROUTES } from './routes';

/** The signed-in paths of docs/product.md §6.1, in the seed's order. */
const SEED_SIGNED_IN_PATHS = [
  '/',
  '/real-time-monitoring',
  '/new-request',
  '/advanced-request',
  '/requests',
  '/requests-management',
  '/approvals',
  '/approvals-management',
  '/analytics',
  '/smart-analytics',
  '/budget-management',
  '/budget-overrun-approvals',
  '/policy-management',
  '/security',
  '/auth-security',
  '/backup-recovery',
  '/communications',
  '/user-management',
  '/registration-management',
  '/organization-management',
  '/custom-roles',
  '/workflow-customization',
  '/financial-flow',
  '/consolidated-financials',
  '/expense-tracking',
  '/smart-form',
  '/voice-to-expense',
  '/receipt-photo-ai',
  '/calendar-integration',
  '/predictive-budgeting',
  '/smart-approval-routing',
  '/expense-coaching',
  '/advanced-ai-demo',
  '/integration-ecosystem',
  '/enhanced-user-management',
  '/advanced-organization-management',
  '/advanced-reporting',
  '/enhanced-policy-management',
  '/executive-ai-copilot',
  '/notification-settings',
  '/notifications',
  '/category-management',
  '/department-management',
  '/audit-history',
  '/ai-search',
  '/budget-vs-actual',
  '/error-reports',
  '/tutorials',
  '/feature-suggestions',
  '/role-management',
  '/user-password-management',
  '/vendor-management',
  '/vendor-aging-report',
  '/user-sessions',
  '/payroll',
  '/backup-management',
  '/onboarding-tutorials',
];

describe('route catalogue', () => {
  it('holds every signed-in path of docs/product.md §6.1 exactly once', () => {
    const seedPaths = SEED_SIGNED_IN_PATHS;
    const signedIn = ROUTES.filter((r) => r.access === 'signed-in').map((r) => r.path);
    expect(new Set(signedIn)).toEqual(new Set(seedPaths));
    expect(seedPaths).toHaveLength(57);
    expect(new Set(ROUTES.map((r) => r.path)).size).toBe(ROUTES.length);
  });

  it('holds the always-available and signed-out screens', () => {
    for (const path of ['/auth', '/auth-bridge', '/auth-success', '/setup-2fa', '/change-password', '/profile']) {
      expect(ROUTES.find((r) => r.path === path)?.access).toBe('always');
    }
    expect(ROUTES.find((r) => r.path === '/register')?.access).toBe('public-only');
  });
});

describe('resolveRoute (docs/product.md §6.1)', () => {
  it('sends signed-out visitors of /, /landing, unknown and signed-in paths to sign-in', () => {
    for (const path of ['/', '/landing', '/nope', '/approvals']) expect(resolveRoute(path, false).path).toBe('/auth');
  });
  it('shows the dashboard for unknown paths and /register once signed in', () => {
    for (const path of ['/nope', '/register', '/landing']) expect(resolveRoute(path, true).path).toBe('/');
  });
  it('keeps always-available screens for everyone', () => {
    expect(resolveRoute('/profile', false).path).toBe('/profile');
    expect(resolveRoute('/setup-2fa', true).path).toBe('/setup-2fa');
    expect(resolveRoute('/approvals/', true).path).toBe('/approvals');
  });
});

describe('navigation (docs/product.md §6.1)', () => {
  const labels = (items: { label: string }[]) => items.map((i) => i.label);
  const paths = (items: { href: string }[]) => items.map((i) => i.href);

  it('lists the five main items', () => {
    expect(labels(MAIN_ITEMS)).toEqual(['Dashboard', 'New Request', 'Approvals', 'Communications', 'AI Copilot']);
  });
  it('lists the admin menu in order', () => {
    expect(paths(ADMIN_ITEMS)).toEqual([
      '/requests',
      '/payroll',
      '/vendor-management',
      '/vendor-aging-report',
      '/budget-management',
      '/budget-vs-actual',
      '/budget-overrun-approvals',
      '/organization-management',
      '/department-management',
      '/category-management',
      '/advanced-reporting',
    ]);
    expect(labels(ADMIN_ITEMS).slice(0, 2)).toEqual(['My Requests', 'Payroll Management']);
  });
  it('groups the settings menu', () => {
    expect(SETTINGS_GROUPS.map((g) => [g.section, paths(g.items)])).toEqual([
      [
        'Users',
        [
          '/user-management',
          '/registration-management',
          '/enhanced-user-management',
          '/user-sessions',
          '/role-management',
          '/user-password-management',
        ],
      ],
      ['Security', ['/auth-security', '/security', '/audit-history', '/backup-management', '/error-reports']],
      [
        'Advanced',
        [
          '/policy-management',
          '/enhanced-policy-management',
          '/workflow-customization',
          '/integration-ecosystem',
          '/advanced-organization-management',
        ],
      ],
      ['Analytics', ['/analytics', '/smart-analytics', '/predictive-budgeting', '/financial-flow', '/ai-search']],
      ['Other', ['/onboarding-tutorials', '/tutorials', '/advanced-ai-demo', '/feature-suggestions']],
    ]);
    const all = SETTINGS_GROUPS.flatMap((g) => g.items);
    expect(all.find((i) => i.href === '/registration-management')?.label).toBe('Registration Requests');
    expect(all.find((i) => i.href === '/workflow-customization')?.label).toBe('Workflow Builder');
    expect(all.find((i) => i.href === '/integration-ecosystem')?.label).toBe('API Integrations');
  });
  it('puts profile and tutorials in the avatar menu', () => {
    expect(AVATAR_ITEMS.map((i) => [i.href, i.label])).toEqual([
      ['/profile', 'User Profile'],
      ['/onboarding-tutorials', 'Onboarding Tutorials'],
      ['/tutorials', 'Tutorials'],
    ]);
  });
  it('shows admin menus only to admin, cfo and owner', () => {
    expect(['admin', 'cfo', 'owner'].every((role) => seesAdminMenus({ role: role as 'admin' }))).toBe(true);
    expect(['manager', 'requester', 'group_cfo'].some((role) => seesAdminMenus({ role: role as 'admin' }))).toBe(false);
  });
});

describe('screens a user may open (the command palette and the reachability check)', () => {
  it('lists every screen of the frame whose permission the user holds, and nothing else', () => {
    const requester = screensFor(permissionsOf('requester')).map((r) => r.path);
    expect(requester).toContain('/');
    expect(requester).toContain('/requests');
    expect(requester).toContain('/expense-tracking');
    expect(requester).toContain('/profile');
    expect(requester).not.toContain('/requests-management');
    expect(requester).not.toContain('/payroll');
    // Sign-in flows and the public registration form are not screens of the frame.
    for (const path of ['/auth', '/register', '/change-password', '/setup-2fa', '/auth-bridge', '/auth-success']) {
      expect(requester).not.toContain(path);
    }
    const owner = screensFor(permissionsOf('owner'));
    expect(owner.length).toBe(ROUTES.filter((r) => r.frame === 'shell').length);
  });
});
