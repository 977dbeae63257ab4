import type { Permission } from '@outlay/contracts/permissions';
import { ADMIN_MENU_ROLES } from '@outlay/contracts/role-names';
import type { CurrentUser } from '@outlay/contracts/auth';

/**
 * The one route catalogue (docs/product.md §6.1): every path, its title, the menus that list it and the
 * permission the server will ask for. Menu order is catalogue order, so entries are arranged in
 * the seed's menu order. Screens link to each other through it; only the app shell
 * (`app/routes.ts`) adds the lazy import that makes each screen its own chunk, so no feature
 * imports the shell that imports it.
 */
export type RouteAccess = 'public-only' | 'always' | 'signed-in';
export type SettingsSection = 'Users' | 'Security' | 'Advanced' | 'Analytics' | 'Other';
export type MenuPlacement =
  { menu: 'main' } | { menu: 'admin' } | { menu: 'settings'; section: SettingsSection } | { menu: 'avatar' };

export interface RouteEntry {
  path: string;
  title: string;
  /** public-only: signed-out visitors; always: either; signed-in: needs a user. */
  access: RouteAccess;
  /** shell: inside the navigation frame; bare: a focused full-page flow. */
  frame: 'shell' | 'bare';
  permission?: Permission;
  /** Others who may open it too, e.g. approvers on a screen that preparers manage. */
  alsoPermissions?: readonly Permission[];
  menus?: MenuPlacement[];
}

export const SETTINGS_SECTIONS: SettingsSection[] = ['Users', 'Security', 'Advanced', 'Analytics', 'Other'];

export const ROUTE_CATALOGUE: readonly RouteEntry[] = [
  { path: '/', title: 'Dashboard', access: 'signed-in', frame: 'shell', menus: [{ menu: 'main' }] },
  {
    path: '/new-request',
    title: 'New Request',
    access: 'signed-in',
    frame: 'shell',
    permission: 'requests.create',
    menus: [{ menu: 'main' }],
  },
  { path: '/approvals', title: 'Approvals', access: 'signed-in', frame: 'shell', menus: [{ menu: 'main' }] },
  {
    path: '/communications',
    title: 'Communications',
    access: 'signed-in',
    frame: 'shell',
    permission: 'communications.use',
    menus: [{ menu: 'main' }],
  },
  {
    path: '/executive-ai-copilot',
    title: 'AI Copilot',
    access: 'signed-in',
    frame: 'shell',
    menus: [{ menu: 'main' }],
  },
  { path: '/profile', title: 'User Profile', access: 'always', frame: 'shell', menus: [{ menu: 'avatar' }] },
  {
    path: '/requests',
    title: 'My Requests',
    access: 'signed-in',
    frame: 'shell',
    permission: 'requests.read.own',
    menus: [{ menu: 'admin' }],
  },
  {
    path: '/payroll',
    title: 'Payroll Management',
    access: 'signed-in',
    frame: 'shell',
    permission: 'payroll.manage',
    alsoPermissions: ['payroll.approve'],
    menus: [{ menu: 'admin' }],
  },
  {
    path: '/vendor-management',
    title: 'Vendor Management',
    access: 'signed-in',
    frame: 'shell',
    permission: 'vendors.manage',
    menus: [{ menu: 'admin' }],
  },
  {
    path: '/vendor-aging-report',
    title: 'Vendor Aging Report',
    access: 'signed-in',
    frame: 'shell',
    permission: 'reports.read',
    menus: [{ menu: 'admin' }],
  },
  {
    path: '/budget-management',
    title: 'Budget Management',
    access: 'signed-in',
    frame: 'shell',
    permission: 'budgets.manage',
    menus: [{ menu: 'admin' }],
  },
  {
    path: '/budget-vs-actual',
    title: 'Budget vs Actual',
    access: 'signed-in',
    frame: 'shell',
    permission: 'budgets.read',
    menus: [{ menu: 'admin' }],
  },
  {
    path: '/budget-overrun-approvals',
    title: 'Budget Overrun Approvals',
    access: 'signed-in',
    frame: 'shell',
    permission: 'budgets.approve_overrun',
    menus: [{ menu: 'admin' }],
  },
  {
    path: '/organization-management',
    title: 'Organization Management',
    access: 'signed-in',
    frame: 'shell',
    permission: 'org.manage',
    alsoPermissions: ['settings.read'],
    menus: [{ menu: 'admin' }],
  },
  {
    path: '/department-management',
    title: 'Department Management',
    access: 'signed-in',
    frame: 'shell',
    permission: 'org.manage',
    alsoPermissions: ['settings.read'],
    menus: [{ menu: 'admin' }],
  },
  {
    path: '/category-management',
    title: 'Category Management',
    access: 'signed-in',
    frame: 'shell',
    permission: 'org.manage',
    alsoPermissions: ['settings.read'],
    menus: [{ menu: 'admin' }],
  },
  {
    path: '/advanced-reporting',
    title: 'Advanced Reporting',
    access: 'signed-in',
    frame: 'shell',
    permission: 'reports.read',
    menus: [{ menu: 'admin' }],
  },
  {
    path: '/user-management',
    title: 'User Management',
    access: 'signed-in',
    frame: 'shell',
    permission: 'users.manage',
    alsoPermissions: ['settings.read'],
    menus: [{ menu: 'settings', section: 'Users' }],
  },
  {
    path: '/registration-management',
    title: 'Registration Requests',
    access: 'signed-in',
    frame: 'shell',
    permission: 'users.manage',
    alsoPermissions: ['settings.read'],
    menus: [{ menu: 'settings', section: 'Users' }],
  },
  {
    path: '/enhanced-user-management',
    title: 'Enhanced User Management',
    access: 'signed-in',
    frame: 'shell',
    permission: 'users.manage',
    alsoPermissions: ['settings.read'],
    menus: [{ menu: 'settings', section: 'Users' }],
  },
  {
    path: '/user-sessions',
    title: 'User Sessions',
    access: 'signed-in',
    frame: 'shell',
    permission: 'users.manage',
    alsoPermissions: ['settings.read'],
    menus: [{ menu: 'settings', section: 'Users' }],
  },
  {
    path: '/role-management',
    title: 'Role Management',
    access: 'signed-in',
    frame: 'shell',
    permission: 'roles.manage',
    alsoPermissions: ['settings.read'],
    menus: [{ menu: 'settings', section: 'Users' }],
  },
  {
    path: '/user-password-management',
    title: 'User Password Management',
    access: 'signed-in',
    frame: 'shell',
    permission: 'users.manage',
    alsoPermissions: ['settings.read'],
    menus: [{ menu: 'settings', section: 'Users' }],
  },
  {
    path: '/auth-security',
    title: 'Auth Security',
    access: 'signed-in',
    frame: 'shell',
    permission: 'security.manage',
    alsoPermissions: ['settings.read'],
    menus: [{ menu: 'settings', section: 'Security' }],
  },
  {
    path: '/security',
    title: 'Security Settings',
    access: 'signed-in',
    frame: 'shell',
    permission: 'security.manage',
    alsoPermissions: ['settings.read'],
    menus: [{ menu: 'settings', section: 'Security' }],
  },
  {
    path: '/audit-history',
    title: 'Audit History',
    access: 'signed-in',
    frame: 'shell',
    permission: 'audit.read',
    menus: [{ menu: 'settings', section: 'Security' }],
  },
  {
    path: '/backup-management',
    title: 'Backup Management',
    access: 'signed-in',
    frame: 'shell',
    permission: 'backups.manage',
    alsoPermissions: ['settings.read'],
    menus: [{ menu: 'settings', section: 'Security' }],
  },
  {
    path: '/error-reports',
    title: 'Error Reports',
    access: 'signed-in',
    frame: 'shell',
    permission: 'errors.read',
    alsoPermissions: ['settings.read'],
    menus: [{ menu: 'settings', section: 'Security' }],
  },
  {
    path: '/policy-management',
    title: 'Policy Management',
    access: 'signed-in',
    frame: 'shell',
    permission: 'policies.manage',
    alsoPermissions: ['settings.read'],
    menus: [{ menu: 'settings', section: 'Advanced' }],
  },
  {
    path: '/enhanced-policy-management',
    title: 'Enhanced Policy Management',
    access: 'signed-in',
    frame: 'shell',
    permission: 'policies.manage',
    alsoPermissions: ['settings.read'],
    menus: [{ menu: 'settings', section: 'Advanced' }],
  },
  {
    path: '/workflow-customization',
    title: 'Workflow Builder',
    access: 'signed-in',
    frame: 'shell',
    permission: 'workflows.manage',
    alsoPermissions: ['settings.read'],
    menus: [{ menu: 'settings', section: 'Advanced' }],
  },
  {
    path: '/integration-ecosystem',
    title: 'API Integrations',
    access: 'signed-in',
    frame: 'shell',
    permission: 'integrations.manage',
    alsoPermissions: ['settings.read'],
    menus: [{ menu: 'settings', section: 'Advanced' }],
  },
  {
    path: '/advanced-organization-management',
    title: 'Advanced Organization Management',
    access: 'signed-in',
    frame: 'shell',
    permission: 'org.manage',
    alsoPermissions: ['settings.read'],
    menus: [{ menu: 'settings', section: 'Advanced' }],
  },
  {
    path: '/analytics',
    title: 'Analytics',
    access: 'signed-in',
    frame: 'shell',
    permission: 'reports.read',
    menus: [{ menu: 'settings', section: 'Analytics' }],
  },
  {
    path: '/smart-analytics',
    title: 'Smart Analytics',
    access: 'signed-in',
    frame: 'shell',
    permission: 'reports.read',
    menus: [{ menu: 'settings', section: 'Analytics' }],
  },
  {
    path: '/predictive-budgeting',
    title: 'Predictive Budgeting',
    access: 'signed-in',
    frame: 'shell',
    permission: 'budgets.read',
    menus: [{ menu: 'settings', section: 'Analytics' }],
  },
  {
    path: '/financial-flow',
    title: 'Financial Flow',
    access: 'signed-in',
    frame: 'shell',
    permission: 'reports.read',
    menus: [{ menu: 'settings', section: 'Analytics' }],
  },
  {
    path: '/ai-search',
    title: 'AI Search',
    access: 'signed-in',
    frame: 'shell',
    menus: [{ menu: 'settings', section: 'Analytics' }],
  },
  {
    path: '/onboarding-tutorials',
    title: 'Onboarding Tutorials',
    access: 'signed-in',
    frame: 'shell',
    menus: [{ menu: 'settings', section: 'Other' }, { menu: 'avatar' }],
  },
  {
    path: '/tutorials',
    title: 'Tutorials',
    access: 'signed-in',
    frame: 'shell',
    menus: [{ menu: 'settings', section: 'Other' }, { menu: 'avatar' }],
  },
  {
    path: '/advanced-ai-demo',
    title: 'Advanced AI Demo',
    access: 'signed-in',
    frame: 'shell',
    menus: [{ menu: 'settings', section: 'Other' }],
  },
  {
    path: '/feature-suggestions',
    title: 'Feature Suggestions',
    access: 'signed-in',
    frame: 'shell',
    menus: [{ menu: 'settings', section: 'Other' }],
  },
  { path: '/real-time-monitoring', title: 'Real-Time Monitoring', access: 'signed-in', frame: 'shell' },
  {
    path: '/advanced-request',
    title: 'Advanced Request',
    access: 'signed-in',
    frame: 'shell',
    permission: 'requests.create',
  },
  {
    path: '/requests-management',
    title: 'Requests Management',
    access: 'signed-in',
    frame: 'shell',
    permission: 'requests.read.scope',
  },
  {
    path: '/approvals-management',
    title: 'Approvals Management',
    access: 'signed-in',
    frame: 'shell',
    permission: 'approvals.manage',
  },
  {
    path: '/smart-form',
    title: 'Smart Request Form',
    access: 'signed-in',
    frame: 'shell',
    permission: 'requests.create',
  },
  {
    path: '/expense-tracking',
    title: 'Expense Tracking',
    access: 'signed-in',
    frame: 'shell',
    permission: 'requests.read.own',
  },
  { path: '/custom-roles', title: 'Custom Roles', access: 'signed-in', frame: 'shell', permission: 'roles.manage' },
  {
    path: '/backup-recovery',
    title: 'Backup Recovery',
    access: 'signed-in',
    frame: 'shell',
    permission: 'backups.manage',
  },
  {
    path: '/consolidated-financials',
    title: 'Consolidated Financials',
    access: 'signed-in',
    frame: 'shell',
    permission: 'reports.read',
  },
  {
    path: '/voice-to-expense',
    title: 'Voice to Expense',
    access: 'signed-in',
    frame: 'shell',
    permission: 'requests.create',
  },
  {
    path: '/receipt-photo-ai',
    title: 'Receipt Photo AI',
    access: 'signed-in',
    frame: 'shell',
    permission: 'requests.create',
  },
  { path: '/calendar-integration', title: 'Calendar Integration', access: 'signed-in', frame: 'shell' },
  {
    path: '/smart-approval-routing',
    title: 'Smart Approval Routing',
    access: 'signed-in',
    frame: 'shell',
    permission: 'approvals.act',
  },
  {
    path: '/expense-coaching',
    title: 'Expense Coaching',
    access: 'signed-in',
    frame: 'shell',
    permission: 'requests.read.own',
  },
  {
    path: '/notification-settings',
    title: 'Notification Settings',
    access: 'signed-in',
    frame: 'shell',
    permission: 'notifications.read',
  },
  {
    path: '/notifications',
    title: 'Notifications',
    access: 'signed-in',
    frame: 'shell',
    permission: 'notifications.read',
  },
  { path: '/auth', title: 'Sign In', access: 'always', frame: 'bare' },
  { path: '/register', title: 'Request Access', access: 'public-only', frame: 'bare' },
  { path: '/change-password', title: 'Change Password', access: 'always', frame: 'bare' },
  { path: '/setup-2fa', title: 'Two-Factor Setup', access: 'always', frame: 'bare' },
  { path: '/auth-bridge', title: 'Signing In', access: 'always', frame: 'bare' },
  { path: '/auth-success', title: 'Signed In', access: 'always', frame: 'bare' },
];

export function findRoute(path: string): RouteEntry | undefined {
  return ROUTE_CATALOGUE.find((route) => route.path === path);
}

export function menuRoutes(menu: MenuPlacement['menu'], section?: SettingsSection): RouteEntry[] {
  return ROUTE_CATALOGUE.filter((route) =>
    route.menus?.some(
      (m) => m.menu === menu && (section === undefined || (m.menu === 'settings' && m.section === section)),
    ),
  );
}

/** Whether a signed-in user with these permissions may open the route (the server asks for the same permission). */
export function mayOpen(route: RouteEntry, permissions: readonly string[]): boolean {
  return (
    !route.permission ||
    permissions.includes(route.permission) ||
    (route.alsoPermissions ?? []).some((p) => permissions.includes(p))
  );
}

/**
 * Every screen of the signed-in frame a user may open, in catalogue order: what the command
 * palette lists, and what every screen must be reachable by following the app's own links.
 */
export function screensFor(permissions: readonly string[]): RouteEntry[] {
  return ROUTE_CATALOGUE.filter(
    (route) => route.frame === 'shell' && route.access !== 'public-only' && mayOpen(route, permissions),
  );
}

/** docs/product.md §6.1, §6.5: only admin, cfo and owner see the Admin and Settings menus. */
export function seesAdminMenus(user: Pick<CurrentUser, 'role'>): boolean {
  return (ADMIN_MENU_ROLES as readonly string[]).includes(user.role);
}
