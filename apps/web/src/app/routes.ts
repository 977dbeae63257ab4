import type { ComponentType } from 'react';
import { ROUTE_CATALOGUE, type RouteEntry } from '@/lib/route-catalogue';

/** A catalogue entry with the lazy import that makes its screen its own chunk. */
export interface AppRoute extends RouteEntry {
  load: () => Promise<{ default: ComponentType }>;
}

const LOADS: Record<string, AppRoute['load']> = {
  '/': () => import('@/features/dashboard/pages/dashboard-page'),
  '/new-request': () => import('@/features/requests/pages/new-request-page'),
  '/approvals': () => import('@/features/approvals/pages/approvals-page'),
  '/communications': () => import('@/features/communications/pages/communications-page'),
  '/executive-ai-copilot': () => import('@/features/ai/pages/executive-ai-copilot-page'),
  '/profile': () => import('@/features/profile/pages/profile-page'),
  '/requests': () => import('@/features/requests/pages/my-requests-page'),
  '/payroll': () => import('@/features/payroll/pages/payroll-page'),
  '/vendor-management': () => import('@/features/vendors/pages/vendor-management-page'),
  '/vendor-aging-report': () => import('@/features/payables/pages/vendor-aging-report-page'),
  '/budget-management': () => import('@/features/budgets/pages/budget-management-page'),
  '/budget-vs-actual': () => import('@/features/budgets/pages/budget-vs-actual-page'),
  '/budget-overrun-approvals': () => import('@/features/budgets/pages/budget-overrun-approvals-page'),
  '/organization-management': () => import('@/features/organizations/pages/organization-management-page'),
  '/department-management': () => import('@/features/organizations/pages/department-management-page'),
  '/category-management': () => import('@/features/categories/pages/category-management-page'),
  '/advanced-reporting': () => import('@/features/reports/pages/advanced-reporting-page'),
  '/user-management': () => import('@/features/users/pages/user-management-page'),
  '/registration-management': () => import('@/features/registration/pages/registration-management-page'),
  '/enhanced-user-management': () => import('@/features/users/pages/enhanced-user-management-page'),
  '/user-sessions': () => import('@/features/users/pages/user-sessions-page'),
  '/role-management': () => import('@/features/roles/pages/role-management-page'),
  '/user-password-management': () => import('@/features/users/pages/user-password-management-page'),
  '/auth-security': () => import('@/features/security/pages/auth-security-page'),
  '/security': () => import('@/features/security/pages/security-settings-page'),
  '/audit-history': () => import('@/features/security/pages/audit-history-page'),
  '/backup-management': () => import('@/features/backups/pages/backup-management-page'),
  '/error-reports': () => import('@/features/error-reports/pages/error-reports-page'),
  '/policy-management': () => import('@/features/policies/pages/policy-management-page'),
  '/enhanced-policy-management': () => import('@/features/policies/pages/enhanced-policy-management-page'),
  '/workflow-customization': () => import('@/features/workflows/pages/workflow-customization-page'),
  '/integration-ecosystem': () => import('@/features/api-keys/pages/integration-ecosystem-page'),
  '/advanced-organization-management': () =>
    import('@/features/organizations/pages/advanced-organization-management-page'),
  '/analytics': () => import('@/features/analytics/pages/analytics-page'),
  '/smart-analytics': () => import('@/features/findings/pages/smart-analytics-page'),
  '/predictive-budgeting': () => import('@/features/forecasts/pages/predictive-budgeting-page'),
  '/financial-flow': () => import('@/features/financial-flow/pages/financial-flow-page'),
  '/ai-search': () => import('@/features/search/pages/ai-search-page'),
  '/onboarding-tutorials': () => import('@/features/onboarding/pages/onboarding-tutorials-page'),
  '/tutorials': () => import('@/features/tutorials/pages/tutorials-page'),
  '/advanced-ai-demo': () => import('@/features/ai/pages/advanced-ai-demo-page'),
  '/feature-suggestions': () => import('@/features/feature-suggestions/pages/feature-suggestions-page'),
  '/real-time-monitoring': () => import('@/features/dashboard/pages/dashboard-page'),
  '/advanced-request': () => import('@/features/requests/pages/advanced-request-page'),
  '/requests-management': () => import('@/features/requests/pages/requests-management-page'),
  '/approvals-management': () => import('@/features/approvals/pages/approvals-management-page'),
  '/smart-form': () => import('@/features/requests/pages/smart-form-page'),
  '/expense-tracking': () => import('@/features/requests/pages/expense-tracking-page'),
  '/custom-roles': () => import('@/features/roles/pages/custom-roles-page'),
  '/backup-recovery': () => import('@/features/backups/pages/backup-recovery-page'),
  '/consolidated-financials': () => import('@/features/consolidation/pages/consolidated-financials-page'),
  '/voice-to-expense': () => import('@/features/ai/pages/voice-to-expense-page'),
  '/receipt-photo-ai': () => import('@/features/receipts/pages/receipt-photo-ai-page'),
  '/calendar-integration': () => import('@/features/calendar/pages/calendar-integration-page'),
  '/smart-approval-routing': () => import('@/features/workflows/pages/smart-approval-routing-page'),
  '/expense-coaching': () => import('@/features/coaching/pages/expense-coaching-page'),
  '/notification-settings': () => import('@/features/notifications/pages/notification-settings-page'),
  '/notifications': () => import('@/features/notifications/pages/notifications-page'),
  '/auth': () => import('@/features/auth/pages/auth-page'),
  '/register': () => import('@/features/registration/pages/register-page'),
  '/change-password': () => import('@/features/auth/pages/change-password-page'),
  '/setup-2fa': () => import('@/features/auth/pages/setup-two-factor-page'),
  '/auth-bridge': () => import('@/features/auth/pages/auth-bridge-page'),
  '/auth-success': () => import('@/features/auth/pages/auth-success-page'),
};

/** Every route of the catalogue with its screen: what the router renders and preloads. */
export const ROUTES: AppRoute[] = ROUTE_CATALOGUE.map((entry) => {
  const load = LOADS[entry.path];
  if (!load) throw new Error(`No screen for ${entry.path}`);
  return { ...entry, load };
});

/** The route at a path, with its screen. */
export function routeAt(path: string): AppRoute | undefined {
  return ROUTES.find((route) => route.path === path);
}
