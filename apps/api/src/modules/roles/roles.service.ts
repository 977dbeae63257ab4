import { and, eq, inArray, sql } from 'drizzle-orm';
import {
  MESSAGES,
  PERMISSIONS,
  PERMISSION_LABELS,
  ROLES,
  ROLE_GRANTS,
  ROLE_LABELS,
  canGrantRole,
  scopeCovers,
  type CustomRole,
  type ListQuery,
  type Paginated,
  type Permission,
  type Role,
  type RoleHolder,
  type RolesOverview,
  type Scope,
  type UserAccess,
  type customRoleInput,
} from '@outlay/contracts';
import { customRoles, users } from '@outlay/db';
import type { z } from 'zod';
import { AppError } from '../../lib/app-error.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { writeAudit } from '../../lib/audit.ts';
import { requireAuth, type AuthInfo, type Ctx } from '../../lib/context.ts';
import { page } from '../../lib/lists.ts';
import { readScopeCondition, scopeCondition } from '../../lib/scope.ts';
import { nextVersion } from '../../lib/versions.ts';
import { requireRecentAuth } from '../../lib/step-up.ts';
import {
  countAssigned,
  customRoleNameTaken,
  findCustomRole,
  holderCountsByRole,
  listCustomRoles,
  listHolders,
  lockActiveOwners,
  lockUserInScope,
} from './roles.repository.ts';

type CustomRoleValues = z.output<typeof customRoleInput>;

function knownPermissions(list: readonly string[]): Permission[] {
  return PERMISSIONS.filter((p) => list.includes(p));
}

/** The users the caller manages roles for: their roles.manage scope over the users table. */
function userScope(auth: AuthInfo) {
  return scopeCondition(auth, 'roles.manage', {
    organizationId: users.organizationId,
    departmentId: users.departmentId,
    ownerId: users.id,
  });
}

/** Whose roles the caller may see: userScope, or a settings reader's reach (never for a change). */
function readScope(auth: AuthInfo) {
  return readScopeCondition(auth, 'roles.manage', {
    organizationId: users.organizationId,
    departmentId: users.departmentId,
    ownerId: users.id,
  });
}

/**
 * Nobody grants what they do not hold (docs/product.md §3.10 /role-management): every permission must be
 * among the caller's grants, at a scope no broader than theirs.
 */
export function assertCanGrant(auth: AuthInfo, permissions: readonly string[], scope: Scope): void {
  for (const p of permissions) {
    const mine = auth.grants[p as Permission];
    if (!mine) {
      throw new AppError('FORBIDDEN', {
        message: MESSAGES.cannotGrantPermission,
        details: [
          {
            path: 'permissions',
            message: `${MESSAGES.cannotGrantPermission}: ${PERMISSION_LABELS[p as Permission] ?? p}`,
          },
        ],
      });
    }
    if (!scopeCovers(mine, scope)) {
      const message = `You cannot grant "${PERMISSION_LABELS[p as Permission] ?? p}" at a broader scope than you hold it (${mine})`;
      throw new AppError('FORBIDDEN', { message, details: [{ path: 'scope', message }] });
    }
  }
}

function assertCanGrantRole(auth: AuthInfo, role: Role, message: string = MESSAGES.cannotGrantPermission): void {
  if (!canGrantRole(auth.grants, role)) throw new AppError('FORBIDDEN', { message });
}

function toCustomRole(row: {
  id: string;
  name: string;
  description: string | null;
  scope: Scope;
  permissions: string[];
  createdAt: Date;
  updatedAt: Date;
  holders?: number;
}): CustomRole {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    scope: row.scope,
    permissions: knownPermissions(row.permissions),
    holders: row.holders ?? 0,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function overview(ctx: Ctx): Promise<RolesOverview> {
  const auth = requireAuth(ctx);
  const scope = readScope(auth);
  const counts = new Map((await holderCountsByRole(ctx.db, scope)).map((r) => [r.role, r]));
  const roles = ROLES.map((role) => ({
    role,
    label: ROLE_LABELS[role],
    scope: ROLE_GRANTS[role].scope,
    permissions: [...ROLE_GRANTS[role].permissions],
    holders: Number(counts.get(role)?.holders ?? 0),
    activeHolders: Number(counts.get(role)?.active ?? 0),
  }));
  const custom = (await listCustomRoles(ctx.db, scope)).map(toCustomRole);
  return { roles, customRoles: custom };
}

export async function roleHolders(ctx: Ctx, role: Role, query: ListQuery): Promise<Paginated<RoleHolder>> {
  const auth = requireAuth(ctx);
  const { rows, total } = await listHolders(ctx.db, eq(users.role, role), readScope(auth), query);
  return page(
    rows.map((r) => ({ ...r, role: r.role as Role })),
    total,
    query,
  );
}

/** Everyone whose role the caller manages, for picking whom to give a role or custom role. */
export async function people(ctx: Ctx, query: ListQuery): Promise<Paginated<RoleHolder>> {
  const auth = requireAuth(ctx);
  const { rows, total } = await listHolders(ctx.db, sql`true`, readScope(auth), query);
  return page(
    rows.map((r) => ({ ...r, role: r.role as Role })),
    total,
    query,
  );
}

export async function customRoleHolders(ctx: Ctx, id: string, query: ListQuery): Promise<Paginated<RoleHolder>> {
  const auth = requireAuth(ctx);
  if (!(await findCustomRole(ctx.db, id))) throw new AppError('NOT_FOUND', { message: 'Custom role not found' });
  const { rows, total } = await listHolders(ctx.db, eq(users.customRoleId, id), readScope(auth), query);
  return page(
    rows.map((r) => ({ ...r, role: r.role as Role })),
    total,
    query,
  );
}

async function accessOf(ctx: Ctx, userId: string): Promise<UserAccess> {
  const [row] = await ctx.db
    .select({
      id: users.id,
      username: users.username,
      role: users.role,
      customRoleId: users.customRoleId,
      customRoleName: customRoles.name,
    })
    .from(users)
    .leftJoin(customRoles, eq(customRoles.id, users.customRoleId))
    .where(eq(users.id, userId));
  return { ...row!, role: row!.role as Role };
}

/**
 * Changes a user's system role (step-up). The caller must hold everything the old and the new
 * role grant, may not change their own role, and the last active owner stays an owner. Grants
 * are read on every call, so the change applies to the user's next request.
 */
export async function changeRole(ctx: Ctx, userId: string, role: Role): Promise<UserAccess> {
  const auth = requireAuth(ctx);
  requireRecentAuth(ctx);
  if (userId === auth.userId) throw new AppError('FORBIDDEN', { message: 'You cannot change your own role' });
  assertCanGrantRole(auth, role);
  await ctx.db.transaction(async (tx) => {
    const target = await lockUserInScope(tx, userId, userScope(auth));
    if (!target) throw new AppError('NOT_FOUND', { message: 'User not found' });
    if (target.role === role) return;
    assertCanGrantRole(
      auth,
      target.role as Role,
      'You cannot change the role of someone who holds permissions you do not hold',
    );
    if (target.role === 'owner' && target.status === 'active') {
      const owners = await lockActiveOwners(tx);
      if (owners.filter((o) => o.id !== target.id).length === 0) {
        throw new AppError('CONFLICT', { message: 'The last active owner cannot be demoted' });
      }
    }
    await tx
      .update(users)
      .set({ role, updatedAt: ctx.now, version: nextVersion(users.version) })
      .where(eq(users.id, target.id));
    await writeAudit(
      tx,
      {
        actorId: auth.userId,
        action: 'user.role_changed',
        entityType: 'user',
        entityId: target.id,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        before: { role: target.role },
        after: { role },
        metadata: { username: target.username },
      },
      ctx.now,
    );
  });
  return accessOf(ctx, userId);
}

/**
 * Changes the role of several people (step-up once). Each change is its own transaction with
 * its audit event under the single-change rules; refusals are skipped and named, like bulk
 * activation.
 */
export async function bulkChangeRole(
  ctx: Ctx,
  ids: string[],
  role: Role,
): Promise<{ changed: number; skipped: { id: string; name: string | null; reason: string }[] }> {
  requireRecentAuth(ctx);
  let changed = 0;
  const skipped: { id: string; name: string | null; reason: string }[] = [];
  const unique = [...new Set(ids)];
  const found = await ctx.db
    .select({ id: users.id, role: users.role, name: users.username })
    .from(users)
    .where(and(inArray(users.id, unique), userScope(requireAuth(ctx))));
  const byId = new Map(found.map((u) => [u.id, u]));
  for (const id of unique) {
    const before = byId.get(id);
    if (!before) {
      skipped.push({ id, name: null, reason: 'User not found' });
      continue;
    }
    if (before.role === role) {
      skipped.push({ id, name: before.name, reason: `Already ${role}` });
      continue;
    }
    try {
      await changeRole(ctx, id, role);
      changed++;
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      skipped.push({ id, name: before.name, reason: error.message });
    }
  }
  return { changed, skipped };
}

/** Assigns a custom role to a user or removes it (step-up); its grants apply on their next call. */
export async function assignCustomRole(ctx: Ctx, userId: string, customRoleId: string | null): Promise<UserAccess> {
  const auth = requireAuth(ctx);
  requireRecentAuth(ctx);
  if (userId === auth.userId) throw new AppError('FORBIDDEN', { message: 'You cannot change your own role' });
  await ctx.db.transaction(async (tx) => {
    const role = customRoleId ? await findCustomRole(tx, customRoleId, true) : null;
    if (customRoleId && !role) throw new AppError('NOT_FOUND', { message: 'Custom role not found' });
    if (role) assertCanGrant(auth, role.permissions, role.scope);
    const target = await lockUserInScope(tx, userId, userScope(auth));
    if (!target) throw new AppError('NOT_FOUND', { message: 'User not found' });
    assertCanGrantRole(
      auth,
      target.role as Role,
      'You cannot change the access of someone who holds permissions you do not hold',
    );
    if (target.customRoleId === customRoleId) return;
    const previous = target.customRoleId ? await findCustomRole(tx, target.customRoleId) : null;
    await tx
      .update(users)
      .set({ customRoleId, updatedAt: ctx.now, version: nextVersion(users.version) })
      .where(eq(users.id, target.id));
    await writeAudit(
      tx,
      {
        actorId: auth.userId,
        action: customRoleId ? 'user.custom_role_assigned' : 'user.custom_role_removed',
        entityType: 'user',
        entityId: target.id,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        before: { customRoleId: target.customRoleId, customRoleName: previous?.name ?? null },
        after: { customRoleId, customRoleName: role?.name ?? null },
        metadata: { username: target.username },
      },
      ctx.now,
    );
  });
  return accessOf(ctx, userId);
}

export async function listCustom(ctx: Ctx, query: ListQuery): Promise<Paginated<CustomRole>> {
  const auth = requireAuth(ctx);
  const all = (await listCustomRoles(ctx.db, readScope(auth), query.q)).map(toCustomRole);
  const sorted =
    query.sort && ['name', 'holders', 'scope', 'updatedAt'].includes(query.sort)
      ? sortBy(all, query.sort as keyof CustomRole, query.order)
      : all;
  const start = (query.page - 1) * query.pageSize;
  return page(sorted.slice(start, start + query.pageSize), all.length, query);
}

function sortBy(rows: CustomRole[], key: keyof CustomRole, order: 'asc' | 'desc'): CustomRole[] {
  const dir = order === 'desc' ? -1 : 1;
  return [...rows].sort((a, b) => {
    const x = a[key];
    const y = b[key];
    if (typeof x === 'number' && typeof y === 'number') return (x - y) * dir;
    return String(x).localeCompare(String(y)) * dir;
  });
}

export async function getCustom(ctx: Ctx, id: string): Promise<CustomRole> {
  const auth = requireAuth(ctx);
  const row = (await listCustomRoles(ctx.db, readScope(auth))).find((r) => r.id === id);
  if (!row) throw new AppError('NOT_FOUND', { message: 'Custom role not found' });
  return toCustomRole(row);
}

const NAME_TAKEN = 'A custom role with this name already exists';

function snapshot(row: { name: string; description: string | null; scope: Scope; permissions: string[] }) {
  return {
    name: row.name,
    description: row.description,
    scope: row.scope,
    permissions: knownPermissions(row.permissions),
  };
}

export async function createCustom(ctx: Ctx, input: CustomRoleValues): Promise<CustomRole> {
  const auth = requireAuth(ctx);
  requireRecentAuth(ctx);
  assertCanGrant(auth, input.permissions, input.scope);
  if (await customRoleNameTaken(ctx.db, input.name))
    throw new AppError('CONFLICT', { message: NAME_TAKEN, details: [{ path: 'name', message: NAME_TAKEN }] });
  try {
    const id = await ctx.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(customRoles)
        .values({ ...input, createdBy: auth.userId, createdAt: ctx.now, updatedAt: ctx.now })
        .returning();
      await writeAudit(
        tx,
        {
          actorId: auth.userId,
          action: 'custom_role.created',
          entityType: 'custom_role',
          entityId: row!.id,
          ip: ctx.ip,
          userAgent: ctx.userAgent,
          after: snapshot(row!),
        },
        ctx.now,
      );
      return row!.id;
    });
    return getCustom(ctx, id);
  } catch (error) {
    if (isUniqueViolation(error))
      throw new AppError('CONFLICT', { message: NAME_TAKEN, details: [{ path: 'name', message: NAME_TAKEN }] });
    throw error;
  }
}

export async function updateCustom(ctx: Ctx, id: string, input: CustomRoleValues): Promise<CustomRole> {
  const auth = requireAuth(ctx);
  requireRecentAuth(ctx);
  assertCanGrant(auth, input.permissions, input.scope);
  if (await customRoleNameTaken(ctx.db, input.name, id))
    throw new AppError('CONFLICT', { message: NAME_TAKEN, details: [{ path: 'name', message: NAME_TAKEN }] });
  try {
    await ctx.db.transaction(async (tx) => {
      const before = await findCustomRole(tx, id, true);
      if (!before) throw new AppError('NOT_FOUND', { message: 'Custom role not found' });
      // Editing a role that grants more than the caller holds would let them keep or widen it.
      assertCanGrant(auth, before.permissions, before.scope);
      const [after] = await tx
        .update(customRoles)
        .set({ ...input, updatedAt: ctx.now })
        .where(eq(customRoles.id, id))
        .returning();
      await writeAudit(
        tx,
        {
          actorId: auth.userId,
          action: 'custom_role.updated',
          entityType: 'custom_role',
          entityId: id,
          ip: ctx.ip,
          userAgent: ctx.userAgent,
          before: snapshot(before),
          after: snapshot(after!),
        },
        ctx.now,
      );
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw new AppError('CONFLICT', { message: NAME_TAKEN, details: [{ path: 'name', message: NAME_TAKEN }] });
    throw error;
  }
  return getCustom(ctx, id);
}

export async function deleteCustom(ctx: Ctx, id: string): Promise<{ message: string }> {
  const auth = requireAuth(ctx);
  requireRecentAuth(ctx);
  const name = await ctx.db.transaction(async (tx) => {
    const before = await findCustomRole(tx, id, true);
    if (!before) throw new AppError('NOT_FOUND', { message: 'Custom role not found' });
    assertCanGrant(auth, before.permissions, before.scope);
    const assigned = await countAssigned(tx, id);
    if (assigned > 0) {
      throw new AppError('CONFLICT', {
        message: `This custom role is assigned to ${assigned} ${assigned === 1 ? 'user' : 'users'}; unassign it before deleting it`,
      });
    }
    await tx.delete(customRoles).where(eq(customRoles.id, id));
    await writeAudit(
      tx,
      {
        actorId: auth.userId,
        action: 'custom_role.deleted',
        entityType: 'custom_role',
        entityId: id,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        before: snapshot(before),
      },
      ctx.now,
    );
    return before.name;
  });
  return { message: `Custom role "${name}" deleted` };
}
