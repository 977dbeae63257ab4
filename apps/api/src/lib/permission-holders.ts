// Who is told: the active users whose role grants a permission where it matters.
import { and, eq, inArray, or, sql } from 'drizzle-orm';
import { ROLE_GRANTS, type Permission } from '@outlay/contracts';
import { users, type Db } from '@outlay/db';

/** Active users whose role grants `permission`: group-scoped roles, and organization-scoped ones of `organizationId`. */
export async function holdersOf(tx: Db, permission: Permission, organizationId: string | null): Promise<string[]> {
  const rolesWith = (scope: string) =>
    Object.entries(ROLE_GRANTS)
      .filter(([, g]) => (g.permissions as readonly string[]).includes(permission) && g.scope === scope)
      .map(([role]) => role);
  const groupRoles = rolesWith('group');
  const orgRoles = organizationId ? rolesWith('organization') : [];
  const rows = await tx
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.status, 'active'),
        or(
          groupRoles.length ? inArray(users.role, groupRoles as never[]) : sql`false`,
          orgRoles.length && organizationId
            ? and(inArray(users.role, orgRoles as never[]), eq(users.organizationId, organizationId))
            : sql`false`,
        ),
      ),
    );
  return rows.map((r) => r.id);
}
