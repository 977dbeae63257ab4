import { eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { SCOPE_RANK, type Permission, type Scope } from '@outlay/contracts';
import { AppError } from './app-error.ts';
import type { AuthInfo } from './context.ts';

/** The scope at which the caller holds a permission (the broadest of system and custom role). */
export function scopeOf(auth: AuthInfo, permission: Permission): Scope | null {
  return auth.grants[permission] ?? null;
}

/**
 * The scope at which the caller may read what a permission manages: that permission's own, or
 * `settings.read`'s (the Admin and Settings menus' readers see those screens without changing
 * anything), the broader winning. For reads only: every change asks for the permission itself.
 */
export function readScopeOf(auth: AuthInfo, permission: Permission): Scope | null {
  const manage = scopeOf(auth, permission);
  const reader = scopeOf(auth, 'settings.read');
  if (!manage || !reader) return manage ?? reader;
  return SCOPE_RANK[manage] >= SCOPE_RANK[reader] ? manage : reader;
}

export function requirePermission(auth: AuthInfo, permission: Permission): Scope {
  const scope = scopeOf(auth, permission);
  if (!scope) throw new AppError('FORBIDDEN', { message: 'You do not have permission to do this' });
  return scope;
}

/**
 * A WHERE condition limiting rows to the caller's scope for a permission: group sees all,
 * organization its own organization, department its department (or organization, for rows that
 * have no department), own only what it owns. Single reads use the same condition, so another
 * scope's record is simply not found (404).
 *
 * The organization column is required: without it an organization-scoped caller would be
 * limited by nothing, so a missing one (an alias without the column) throws instead.
 */
export function scopeCondition(
  auth: AuthInfo,
  permission: Permission,
  columns: { organizationId: PgColumn; departmentId?: PgColumn; ownerId?: PgColumn },
): SQL | undefined {
  if (!columns.organizationId) throw new Error(`scopeCondition(${permission}) needs the rows' organization column`);
  return conditionAt(auth, requirePermission(auth, permission), columns);
}

/** scopeCondition for a read a permission's manager or a settings reader may make (readScopeOf). */
export function readScopeCondition(
  auth: AuthInfo,
  permission: Permission,
  columns: { organizationId: PgColumn; departmentId?: PgColumn; ownerId?: PgColumn },
): SQL | undefined {
  if (!columns.organizationId) throw new Error(`readScopeCondition(${permission}) needs the rows' organization column`);
  const scope = readScopeOf(auth, permission);
  if (!scope) throw new AppError('FORBIDDEN', { message: 'You do not have permission to do this' });
  return conditionAt(auth, scope, columns);
}

function conditionAt(
  auth: AuthInfo,
  scope: Scope,
  columns: { organizationId: PgColumn; departmentId?: PgColumn; ownerId?: PgColumn },
): SQL | undefined {
  const none = sql`false`;
  switch (scope) {
    case 'group':
      return undefined;
    case 'organization':
      return auth.organizationId ? eq(columns.organizationId, auth.organizationId) : none;
    case 'department':
      if (columns.departmentId) return auth.departmentId ? eq(columns.departmentId, auth.departmentId) : none;
      return auth.organizationId ? eq(columns.organizationId, auth.organizationId) : none;
    case 'own':
      if (columns.ownerId) return eq(columns.ownerId, auth.userId);
      return auth.organizationId ? inArray(columns.organizationId, [auth.organizationId]) : none;
  }
}

/** True when an organization is inside the caller's scope for a permission. */
export function organizationInScope(auth: AuthInfo, permission: Permission, organizationId: string): boolean {
  const scope = scopeOf(auth, permission);
  if (!scope) return false;
  return scope === 'group' || auth.organizationId === organizationId;
}
