import type { ComponentType } from 'react';
import type { Permission } from '@outlay/contracts/permissions';

/**
 * The one route catalogue (docs/product.md §6.1): every path, its title, the menus that list it, the
 * permission the server will ask for, and the lazy import that makes it its own chunk.
 * Menu order is catalogue order, so entries are arranged in the seed's menu order.
 */
export type RouteAccess = 'public-only' | 'always' | 'signed-in';
export type SettingsSection = 'Users' | 'Security' | 'Advanced' | 'Analytics' | 'Other';
export type MenuPlacement =
  | { menu: 'main' }
  | { menu: 'admin' }
  | { menu: 'settings'; section: SettingsSection }
  | { menu: 'avatar' };

export interface AppRoute {
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
  load: () => Promise<{ default: ComponentType }>;
}

export const SETTINGS_SECTIONS: SettingsSection[] = ['Users', 'Security', 'Advanced', 'Analytics', 'Other'];

export const ROUTES: AppRoute[] = [
  { path: '/', title: 'Dashboard', access: 'signed-in', frame: 'shell', menus: [{ menu: 'main' }], load: () => import('@/features/dashboard/pages/dashboard-page') },
  { path: '/new-request', title: 'New Request', access: 'signed-in', frame: 'shell', permission: 'requests.create', menus: [{ menu: 'main' }], load: () => import('@/features/requests/pages/new-request-page') },
  { path: '/approvals', title: 'Approvals', access: 'signed-in', frame: 'shell', menus: [{ menu: 'main' }], load: () => import('@/features/approvals/pages/approvals-page') },
  { path: '/communications', title: 'Communications', access: 'signed-in', frame: 'shell', permission: 'communications.use', menus: [{ menu: 'main' }], load: () => import('@/features/communications/pages/communications-page') },
  { path: '/executive-ai-copilot', title: 'AI Copilot', access: 'signed-in', frame: 'shell', menus: [{ menu: 'main' }], load: () => import('@/features/ai/pages/executive-ai-copilot-page') },
  { path: '/profile', title: 'User Profile', access: 'always', frame: 'shell', menus: [{ menu: 'avatar' }], load: () => import('@/features/profile/pages/profile-page') },
  { path: '/requests', title: 'My Requests', access: 'signed-in', frame: 'shell', permission: 'requests.read.own', menus: [{ menu: 'admin' }], load: () => import('@/features/requests/pages/my-requests-page') },
  { path: '/payroll', title: 'Payroll Management', access: 'signed-in', frame: 'shell', permission: 'payroll.manage', alsoPermissions: ['payroll.approve'], menus: [{ menu: 'admin' }], load: () => import('@/features/payroll/pages/payroll-page') },
  { path: '/vendor-management', title: 'Vendor Management', access: 'signed-in', frame: 'shell', permission: 'vendors.manage', menus: [{ menu: 'admin' }], load: () => import('@/features/vendors/pages/vendor-management-page') },
  { path: '/vendor-aging-report', title: 'Vendor Aging Report', access: 'signed-in', frame: 'shell', permission: 'reports.read', menus: [{ menu: 'admin' }], load: () => import('@/features/payables/pages/vendor-aging-report-page') },
  { path: '/budget-management', title: 'Budget Management', access: 'signed-in', frame: 'shell', permission: 'budgets.manage', menus: [{ menu: 'admin' }], load: () => import('@/features/budgets/pages/budget-management-page') },
  { path: '/budget-vs-actual', title: 'Budget vs Actual', access: 'signed-in', frame: 'shell', permission: 'budgets.read', menus: [{ menu: 'admin' }], load: () => import('@/features/budgets/pages/budget-vs-actual-page') },
  { path: '/budget-overrun-approvals', title: 'Budget Overrun Approvals', access: 'signed-in', frame: 'shell', permission: 'budgets.approve_overrun', menus: [{ menu: 'admin' }], load: () => import('@/features/budgets/pages/budget-overrun-approvals-page') },
  { path: '/organization-management', title: 'Organization Management', access: 'signed-in', frame: 'shell', permission: 'org.manage', alsoPermissions: ['settings.read'], menus: [{ menu: 'admin' }], load: () => import('@/features/organizations/pages/organization-management-page') },
  { path: '/department-management', title: 'Department Management', access: 'signed-in', frame: 'shell', permission: 'org.manage', alsoPermissions: ['settings.read'], menus: [{ menu: 'admin' }], load: () => import('@/features/organizations/pages/department-management-page') },
  { path: '/category-management', title: 'Category Management', access: 'signed-in', frame: 'shell', permission: 'org.manage', alsoPermissions: ['settings.read'], menus: [{ menu: 'admin' }], load: () => import('@/features/categories/pages/category-management-page') },
  { path: '/advanced-reporting', title: 'Advanced Reporting', access: 'signed-in', frame: 'shell', permission: 'reports.read', menus: [{ menu: 'admin' }], load: () => import('@/features/reports/pages/advanced-reporting-page') },
  { path: '/user-management', title: 'User Management', access: 'signed-in', frame: 'shell', permission: 'users.manage', alsoPermissions: ['settings.read'], menus: [{ menu: 'settings', section: 'Users' }], load: () => import('@/features/users/pages/user-management-page') },
  { path: '/registration-management', title: 'Registration Requests', access: 'signed-in', frame: 'shell', permission: 'users.manage', alsoPermissions: ['settings.read'], menus: [{ menu: 'settings', section: 'Users' }], load: () => import('@/features/registration/pages/registration-management-page') },
  { path: '/enhanced-user-management', title: 'Enhanced User Management', access: 'signed-in', frame: 'shell', permission: 'users.manage', alsoPermissions: ['settings.read'], menus: [{ menu: 'settings', section: 'Users' }], load: () => import('@/features/users/pages/enhanced-user-management-page') },
  { path: '/user-sessions', title: 'User Sessions', access: 'signed-in', frame: 'shell', permission: 'users.manage', alsoPermissions: ['settings.read'], menus: [{ menu: 'settings', section: 'Users' }], load: () => import('@/features/users/pages/user-sessions-page') },
  { path: '/role-management', title: 'Role Management', access: 'signed-in', frame: 'shell', permission: 'roles.manage', alsoPermissions: ['settings.read'], menus: [{ menu: 'settings', section: 'Users' }], load: () => import('@/features/roles/pages/role-management-page') },
  { path: '/user-password-management', title: 'User Password Management', access: 'signed-in', frame: 'shell', permission: 'users.manage', alsoPermissions: ['settings.read'], menus: [{ menu: 'settings', section: 'Users' }], load: () => import('@/features/users/pages/user-password-management-page') },
  { path: '/auth-security', title: 'Auth Security', access: 'signed-in', frame: 'shell', permission: 'security.manage', alsoPermissions: ['settings.read'], menus: [{ menu: 'settings', section: 'Security' }], load: () => import('@/features/security/pages/auth-security-page') },
  { path: '/security', title: 'Security Settings', access: 'signed-in', frame: 'shell', permission: 'security.manage', alsoPermissions: ['settings.read'], menus: [{ menu: 'settings', section: 'Security' }], load: () => import('@/features/security/pages/security-settings-page') },
  { path: '/audit-history', title: 'Audit History', access: 'signed-in', frame: 'shell', permission: 'audit.read', menus: [{ menu: 'settings', section: 'Security' }], load: () => import('@/features/security/pages/audit-history-page') },
  { path: '/backup-management', title: 'Backup Management', access: 'signed-in', frame: 'shell', permission: 'backups.manage', alsoPermissions: ['settings.read'], menus: [{ menu: 'settings', section: 'Security' }], load: () => import('@/features/backups/pages/backup-management-page') },
  { path: '/error-reports', title: 'Error Reports', access: 'signed-in', frame: 'shell', permission: 'errors.read', alsoPermissions: ['settings.read'], menus: [{ menu: 'settings', section: 'Security' }], load: () => import('@/features/error-reports/pages/error-reports-page') },
  { path: '/policy-management', title: 'Policy Management', access: 'signed-in', frame: 'shell', permission: 'policies.manage', alsoPermissions: ['settings.read'], menus: [{ menu: 'settings', section: 'Advanced' }], load: () => import('@/features/policies/pages/policy-management-page') },
  { path: '/enhanced-policy-management', title: 'Enhanced Policy Management', access: 'signed-in', frame: 'shell', permission: 'policies.manage', alsoPermissions: ['settings.read'], menus: [{ menu: 'settings', section: 'Advanced' }], load: () => import('@/features/policies/pages/enhanced-policy-management-page') },
  { path: '/workflow-customization', title: 'Workflow Builder', access: 'signed-in', frame: 'shell', permission: 'workflows.manage', alsoPermissions: ['settings.read'], menus: [{ menu: 'settings', section: 'Advanced' }], load: () => import('@/features/workflows/pages/workflow-customization-page') },
  { path: '/integration-ecosystem', title: 'API Integrations', access: 'signed-in', frame: 'shell', permission: 'integrations.manage', alsoPermissions: ['settings.read'], menus: [{ menu: 'settings', section: 'Advanced' }], load: () => import('@/features/api-keys/pages/integration-ecosystem-page') },
  { path: '/advanced-organization-management', title: 'Advanced Organization Management', access: 'signed-in', frame: 'shell', permission: 'org.manage', alsoPermissions: ['settings.read'], menus: [{ menu: 'settings', section: 'Advanced' }], load: () => import('@/features/organizations/pages/advanced-organization-management-page') },
  { path: '/analytics', title: 'Analytics', access: 'signed-in', frame: 'shell', permission: 'reports.read', menus: [{ menu: 'settings', section: 'Analytics' }], load: () => import('@/features/analytics/pages/analytics-page') },
  { path: '/smart-analytics', title: 'Smart Analytics', access: 'signed-in', frame: 'shell', permission: 'reports.read', menus: [{ menu: 'settings', section: 'Analytics' }], load: () => import('@/features/findings/pages/smart-analytics-page') },
  { path: '/predictive-budgeting', title: 'Predictive Budgeting', access: 'signed-in', frame: 'shell', permission: 'budgets.read', menus: [{ menu: 'settings', section: 'Analytics' }], load: () => import('@/features/forecasts/pages/predictive-budgeting-page') },
  { path: '/financial-flow', title: 'Financial Flow', access: 'signed-in', frame: 'shell', permission: 'reports.read', menus: [{ menu: 'settings', section: 'Analytics' }], load: () => import('@/features/financial-flow/pages/financial-flow-page') },
  { path: '/ai-search', title: 'AI Search', access: 'signed-in', frame: 'shell', menus: [{ menu: 'settings', section: 'Analytics' }], load: () => import('@/features/search/pages/ai-search-page') },
  { path: '/onboarding-tutorials', title: 'Onboarding Tutorials', access: 'signed-in', frame: 'shell', menus: [{ menu: 'settings', section: 'Other' }, { menu: 'avatar' }], load: () => import('@/features/onboarding/pages/onboarding-tutorials-page') },
  { path: '/tutorials', title: 'Tutorials', access: 'signed-in', frame: 'shell', menus: [{ menu: 'settings', section: 'Other' }, { menu: 'avatar' }], load: () => import('@/features/tutorials/pages/tutorials-page') },
  { path: '/advanced-ai-demo', title: 'Advanced AI Demo', access: 'signed-in', frame: 'shell', menus: [{ menu: 'settings', section: 'Other' }], load: () => import('@/features/ai/pages/advanced-ai-demo-page') },
  { path: '/feature-suggestions', title: 'Feature Suggestions', access: 'signed-in', frame: 'shell', menus: [{ menu: 'settings', section: 'Other' }], load: () => import('@/features/feature-suggestions/pages/feature-suggestions-page') },
  { path: '/real-time-monitoring', title: 'Real-Time Monitoring', access: 'signed-in', frame: 'shell', load: () => import('@/features/dashboard/pages/dashboard-page') },
  { path: '/advanced-request', title: 'Advanced Request', access: 'signed-in', frame: 'shell', permission: 'requests.create', load: () => import('@/features/requests/pages/advanced-request-page') },
  { path: '/requests-management', title: 'Requests Management', access: 'signed-in', frame: 'shell', permission: 'requests.read.scope', load: () => import('@/features/requests/pages/requests-management-page') },
  { path: '/approvals-management', title: 'Approvals Management', access: 'signed-in', frame: 'shell', permission: 'approvals.manage', load: () => import('@/features/approvals/pages/approvals-management-page') },
  { path: '/smart-form', title: 'Smart Request Form', access: 'signed-in', frame: 'shell', permission: 'requests.create', load: () => import('@/features/requests/pages/smart-form-page') },
  { path: '/expense-tracking', title: 'Expense Tracking', access: 'signed-in', frame: 'shell', permission: 'requests.read.own', load: () => import('@/features/requests/pages/expense-tracking-page') },
  { path: '/custom-roles', title: 'Custom Roles', access: 'signed-in', frame: 'shell', permission: 'roles.manage', load: () => import('@/features/roles/pages/custom-roles-page') },
  { path: '/backup-recovery', title: 'Backup Recovery', access: 'signed-in', frame: 'shell', permission: 'backups.manage', load: () => import('@/features/backups/pages/backup-recovery-page') },
  { path: '/consolidated-financials', title: 'Consolidated Financials', access: 'signed-in', frame: 'shell', permission: 'reports.read', load: () => import('@/features/consolidation/pages/consolidated-financials-page') },
  { path: '/voice-to-expense', title: 'Voice to Expense', access: 'signed-in', frame: 'shell', permission: 'requests.create', load: () => import('@/features/ai/pages/voice-to-expense-page') },
  { path: '/receipt-photo-ai', title: 'Receipt Photo AI', access: 'signed-in', frame: 'shell', permission: 'requests.create', load: () => import('@/features/receipts/pages/receipt-photo-ai-page') },
  { path: '/calendar-integration', title: 'Calendar Integration', access: 'signed-in', frame: 'shell', load: () => import('@/features/calendar/pages/calendar-integration-page') },
  { path: '/smart-approval-routing', title: 'Smart Approval Routing', access: 'signed-in', frame: 'shell', permission: 'approvals.act', load: () => import('@/features/workflows/pages/smart-approval-routing-page') },
  { path: '/expense-coaching', title: 'Expense Coaching', access: 'signed-in', frame: 'shell', permission: 'requests.read.own', load: () => import('@/features/coaching/pages/expense-coaching-page') },
  { path: '/notification-settings', title: 'Notification Settings', access: 'signed-in', frame: 'shell', permission: 'notifications.read', load: () => import('@/features/notifications/pages/notification-settings-page') },
  { path: '/notifications', title: 'Notifications', access: 'signed-in', frame: 'shell', permission: 'notifications.read', load: () => import('@/features/notifications/pages/notifications-page') },
  { path: '/auth', title: 'Sign In', access: 'always', frame: 'bare', load: () => import('@/features/auth/pages/auth-page') },
  { path: '/register', title: 'Request Access', access: 'public-only', frame: 'bare', load: () => import('@/features/registration/pages/register-page') },
  { path: '/change-password', title: 'Change Password', access: 'always', frame: 'bare', load: () => import('@/features/auth/pages/change-password-page') },
  { path: '/setup-2fa', title: 'Two-Factor Setup', access: 'always', frame: 'bare', load: () => import('@/features/auth/pages/setup-two-factor-page') },
  { path: '/auth-bridge', title: 'Signing In', access: 'always', frame: 'bare', load: () => import('@/features/auth/pages/auth-bridge-page') },
  { path: '/auth-success', title: 'Signed In', access: 'always', frame: 'bare', load: () => import('@/features/auth/pages/auth-success-page') },
];

export function findRoute(path: string): AppRoute | undefined {
  return ROUTES.find((route) => route.path === path);
}

export function menuRoutes(menu: MenuPlacement['menu'], section?: SettingsSection): AppRoute[] {
  return ROUTES.filter((route) =>
    route.menus?.some((m) => m.menu === menu && (section === undefined || (m.menu === 'settings' && m.section === section))),
  );
}

/** Whether a signed-in user with these permissions may open the route (the server asks for the same permission). */
export function mayOpen(route: AppRoute, permissions: readonly string[]): boolean {
  return !route.permission || permissions.includes(route.permission) || (route.alsoPermissions ?? []).some((p) => permissions.includes(p));
}

/**
 * Every screen of the signed-in frame a user may open, in catalogue order: what the command
 * palette lists, and what every screen must be reachable by following the app's own links.
 */
export function screensFor(permissions: readonly string[]): AppRoute[] {
  return ROUTES.filter((route) => route.frame === 'shell' && route.access !== 'public-only' && mayOpen(route, permissions));
}
