// What a person may do now, for work done on their behalf without a session of theirs: a
// calendar app fetching their feed, a program calling with their API key, a scheduled report
// sent under their name. Read from their row as it is at that moment, so a role taken away or a
// suspension applies at once, exactly as the session check would apply it.
import { ROLE_GRANTS, grantsFor, type Grants, type Permission, type Role, type Scope } from '@outlay/contracts';
import { customRoles, users } from '@outlay/db';
import type { AuthInfo } from './context.ts';

/** Select these with `.leftJoin(customRoles, eq(customRoles.id, users.customRoleId))`. */
export const personAccessColumns = {
  userId: users.id,
  status: users.status,
  role: users.role,
  organizationId: users.organizationId,
  departmentId: users.departmentId,
  customRoleId: users.customRoleId,
  customPermissions: customRoles.permissions,
  customScope: customRoles.scope,
};

export interface PersonAccess {
  userId: string;
  role: string;
  organizationId: string | null;
  departmentId: string | null;
  customRoleId: string | null;
  customPermissions: readonly string[] | null;
  customScope: Scope | null;
}

/**
 * The person as a session would carry them, with no session, no device and no recent password
 * (so step-up actions are refused). `limitTo` keeps only those of their grants (an API key's).
 */
export function authOfPerson(
  p: PersonAccess,
  options: { sessionId?: string; limitTo?: readonly Permission[]; apiKey?: AuthInfo['apiKey'] } = {},
): AuthInfo {
  const role = p.role as Role;
  const all = grantsFor(role, p.customScope ? { permissions: p.customPermissions ?? [], scope: p.customScope } : null);
  let grants: Grants = all;
  if (options.limitTo) {
    grants = {};
    for (const permission of options.limitTo) if (all[permission]) grants[permission] = all[permission];
  }
  return {
    userId: p.userId,
    sessionId: options.sessionId ?? '',
    deviceId: options.sessionId ?? '',
    role,
    scope: ROLE_GRANTS[role]?.scope ?? 'own',
    permissions: Object.freeze(Object.keys(grants) as Permission[]),
    grants: Object.freeze(grants),
    customRoleId: p.customRoleId,
    organizationId: p.organizationId,
    departmentId: p.departmentId,
    reauthAt: new Date(0),
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
  };
}
