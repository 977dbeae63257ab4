import { z } from 'zod';
import { PERMISSIONS, SCOPES, type Permission, type Scope } from './permissions.ts';
import { ROLES, USER_STATUSES } from './role-names.ts';

export * from './role-names.ts';

// ---------------------------------------------------------------------------------------------
// Role management and custom roles (/role-management, /custom-roles).
// ---------------------------------------------------------------------------------------------

/** The permission catalogue in words, for the role screens. */
export const PERMISSION_LABELS: Record<Permission, string> = {
  'requests.create': 'Create spending requests',
  'requests.read.own': 'See own requests',
  'requests.read.scope': 'See requests in scope',
  'requests.pay': 'Mark requests paid',
  'approvals.act': 'Approve and reject',
  'approvals.manage': 'Manage approvals (reassign, delegate)',
  'workflows.manage': 'Manage approval workflows',
  'budgets.read': 'See budgets',
  'budgets.manage': 'Manage budgets',
  'budgets.approve_overrun': 'Approve budget overruns',
  'payroll.manage': 'Prepare payroll',
  'payroll.approve': 'Approve payroll runs',
  'vendors.manage': 'Manage vendors',
  'payables.manage': 'Manage payables and payments',
  'reports.read': 'See reports and analytics',
  'org.manage': 'Manage organizations, departments and categories',
  'settings.read':
    'See every Admin and Settings screen read-only (users, roles, security, backups, policies, workflows, integrations, organizations)',
  'users.manage': 'Manage users and registrations',
  'roles.manage': 'Manage roles and custom roles',
  'policies.manage': 'Manage expense policies',
  'security.manage': 'Manage security settings',
  'audit.read': 'Read the audit history',
  'backups.manage': 'Manage backups',
  'integrations.manage': 'Manage integrations and API keys',
  'errors.read': 'See error reports',
  'feedback.manage': 'Set the status of feature suggestions',
  'communications.use': 'Use communications',
  'communications.announce': 'Publish announcements',
  'notifications.read': 'Receive notifications',
  'profile.manage': 'Manage own profile',
};

export const SCOPE_LABELS: Record<Scope, string> = {
  own: 'Own records',
  department: 'Own department',
  organization: 'Own organization',
  group: 'Whole group',
};

export const systemRole = z.object({
  role: z.enum(ROLES),
  label: z.string(),
  scope: z.enum(SCOPES),
  permissions: z.array(z.enum(PERMISSIONS)),
  holders: z.number().int(),
  activeHolders: z.number().int(),
});
export type SystemRole = z.infer<typeof systemRole>;

export const customRole = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  scope: z.enum(SCOPES),
  permissions: z.array(z.enum(PERMISSIONS)),
  holders: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type CustomRole = z.infer<typeof customRole>;

export const rolesOverview = z.object({ roles: z.array(systemRole), customRoles: z.array(customRole) });
export type RolesOverview = z.infer<typeof rolesOverview>;

export const roleParam = z.object({ role: z.enum(ROLES, { error: 'Unknown role' }) });

export const roleHolder = z.object({
  id: z.string(),
  username: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  status: z.enum(USER_STATUSES),
  organizationName: z.string().nullable(),
  departmentName: z.string().nullable(),
  customRoleId: z.string().nullable(),
  customRoleName: z.string().nullable(),
});
export type RoleHolder = z.infer<typeof roleHolder>;

export const changeRoleInput = z.object({ role: z.enum(ROLES, { error: 'Choose a valid role' }) });
export type ChangeRoleInput = z.infer<typeof changeRoleInput>;

/** Bulk role change on /enhanced-user-management: the same rules as one change, per person. */
export const bulkRoleChangeInput = z.object({
  ids: z.array(z.uuid('Not a valid id')).min(1, 'Select at least one user').max(500, 'Select at most 500 users'),
  role: z.enum(ROLES, { error: 'Choose a valid role' }),
});
export type BulkRoleChangeInput = z.infer<typeof bulkRoleChangeInput>;

export const assignCustomRoleInput = z.object({
  customRoleId: z.uuid('Not a valid custom role').nullable(),
});
export type AssignCustomRoleInput = z.infer<typeof assignCustomRoleInput>;

/** A user's access after a role change, as the role screens show it. */
export const userAccess = z.object({
  id: z.string(),
  username: z.string(),
  role: z.enum(ROLES),
  customRoleId: z.string().nullable(),
  customRoleName: z.string().nullable(),
});
export type UserAccess = z.infer<typeof userAccess>;

export const customRoleInput = z.object({
  name: z
    .string({ error: 'Name is required' })
    .trim()
    .min(2, 'Name must be at least 2 characters')
    .max(80, 'Name must be at most 80 characters'),
  description: z
    .string()
    .trim()
    .max(500, 'Description must be at most 500 characters')
    .nullish()
    .transform((v) => (v ? v : null)),
  permissions: z
    .array(z.enum(PERMISSIONS, { error: 'Unknown permission' }))
    .min(1, 'Choose at least one permission')
    .transform((list) => PERMISSIONS.filter((p) => list.includes(p))),
  scope: z.enum(SCOPES, { error: 'Choose a scope' }),
});
export type CustomRoleInput = z.input<typeof customRoleInput>;
