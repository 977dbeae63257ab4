import type { Role } from './role-names.ts';

/** The permission vocabulary (docs/product.md §5.1). Every API route declares one of these, or is public. */
export const PERMISSIONS = [
  'requests.create',
  'requests.read.own',
  'requests.read.scope',
  'requests.pay',
  'approvals.act',
  'approvals.manage',
  'workflows.manage',
  'budgets.read',
  'budgets.manage',
  'budgets.approve_overrun',
  'payroll.manage',
  'payroll.approve',
  'vendors.manage',
  'payables.manage',
  'reports.read',
  'org.manage',
  /**
   * Opens the Admin menu's organization, department and category screens and every Settings-menu
   * screen read-only (the seed gives cfo those menus): their lists and records, never a change,
   * a secret, a backup's contents or another person's keys and webhooks.
   */
  'settings.read',
  'users.manage',
  'roles.manage',
  'policies.manage',
  'security.manage',
  'audit.read',
  'backups.manage',
  'integrations.manage',
  'errors.read',
  'feedback.manage',
  'communications.use',
  'communications.announce',
  'notifications.read',
  'profile.manage',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const SCOPES = ['own', 'department', 'organization', 'group'] as const;
export type Scope = (typeof SCOPES)[number];

/** What every signed-in person may do with their own things. */
const SELF: Permission[] = [
  'requests.create',
  'requests.read.own',
  'communications.use',
  'notifications.read',
  'profile.manage',
];
const APPROVER: Permission[] = [...SELF, 'approvals.act', 'reports.read', 'requests.read.scope', 'budgets.read'];
const FINANCE: Permission[] = [
  ...APPROVER,
  'requests.pay',
  'approvals.manage',
  'budgets.manage',
  'budgets.approve_overrun',
  'payroll.manage',
  'payroll.approve',
  'vendors.manage',
  'payables.manage',
  'audit.read',
];

/** Executives and department heads address announcements within their scope (everyone, their organization, their department). */
const ANNOUNCER: Permission[] = ['communications.announce'];

export interface RoleGrant {
  permissions: readonly Permission[];
  scope: Scope;
}

const everything = PERMISSIONS.filter(() => true);

export const ROLE_GRANTS: Record<Role, RoleGrant> = {
  owner: { permissions: everything, scope: 'group' },
  admin: { permissions: everything.filter((p) => p !== 'payroll.approve'), scope: 'group' },
  cfo: { permissions: [...FINANCE, ...ANNOUNCER, 'settings.read'], scope: 'group' },
  group_ceo: { permissions: [...APPROVER, ...ANNOUNCER], scope: 'group' },
  group_cfo: { permissions: [...APPROVER, 'budgets.approve_overrun', 'payroll.approve', ...ANNOUNCER], scope: 'group' },
  group_coo: { permissions: [...APPROVER, ...ANNOUNCER], scope: 'group' },
  group_cto: { permissions: APPROVER, scope: 'group' },
  group_supply_chain: { permissions: APPROVER, scope: 'group' },
  subsidiary_ceo: { permissions: [...APPROVER, ...ANNOUNCER], scope: 'organization' },
  subsidiary_coo: { permissions: [...APPROVER, ...ANNOUNCER], scope: 'organization' },
  subsidiary_finance_manager: {
    permissions: [...APPROVER, 'budgets.manage', 'payroll.manage'],
    scope: 'organization',
  },
  subsidiary_technical: { permissions: APPROVER, scope: 'organization' },
  subsidiary_supply_chain: { permissions: APPROVER, scope: 'organization' },
  department_head: { permissions: [...APPROVER, ...ANNOUNCER], scope: 'department' },
  manager: { permissions: APPROVER, scope: 'department' },
  accounts: {
    permissions: [...SELF, 'requests.pay', 'payables.manage', 'vendors.manage', 'requests.read.scope'],
    scope: 'organization',
  },
  requester: { permissions: SELF, scope: 'own' },
  user: { permissions: SELF, scope: 'own' },
};

export function roleHas(role: Role, permission: Permission): boolean {
  return ROLE_GRANTS[role].permissions.includes(permission);
}

export function permissionsOf(role: Role): Permission[] {
  return [...ROLE_GRANTS[role].permissions];
}

export const SCOPE_RANK: Record<Scope, number> = { own: 0, department: 1, organization: 2, group: 3 };

/** True when a permission held at `held` reaches as far as `wanted`. */
export function scopeCovers(held: Scope | undefined, wanted: Scope): boolean {
  return held !== undefined && SCOPE_RANK[held] >= SCOPE_RANK[wanted];
}

export function broaderScope(a: Scope | undefined, b: Scope): Scope {
  return a === undefined || SCOPE_RANK[b] > SCOPE_RANK[a] ? b : a;
}

export type Grants = Partial<Record<Permission, Scope>>;

/**
 * What a user may do and at which scope: the system role's permissions at its scope, plus a
 * custom role's permissions at the custom role's scope, the broader scope winning.
 */
export function grantsFor(role: Role, custom?: { permissions: readonly string[]; scope: Scope } | null): Grants {
  const grants: Grants = {};
  const system = ROLE_GRANTS[role] ?? { permissions: [], scope: 'own' as Scope };
  for (const p of system.permissions) grants[p] = broaderScope(grants[p], system.scope);
  if (custom) {
    for (const p of custom.permissions) {
      if ((PERMISSIONS as readonly string[]).includes(p))
        grants[p as Permission] = broaderScope(grants[p as Permission], custom.scope);
    }
  }
  return grants;
}

/**
 * Nobody grants more than they hold (docs/decisions/005): the permissions among `permissions`
 * the caller does not hold at `scope` or broader. Empty means the caller may grant them.
 */
export function missingGrants(grants: Grants, permissions: readonly string[], scope: Scope): Permission[] {
  return PERMISSIONS.filter((p) => permissions.includes(p) && !scopeCovers(grants[p], scope));
}

/** The same rule for a system role: used when approving, creating, importing or changing users. */
export function canGrantRole(grants: Grants, role: Role): boolean {
  const wanted = ROLE_GRANTS[role];
  return wanted !== undefined && missingGrants(grants, wanted.permissions, wanted.scope).length === 0;
}
