import { and, eq, type SQL } from 'drizzle-orm';
import {
  MAX_EXPORT_ROWS,
  ROLE_LABELS,
  canGrantRole,
  type BulkUserResult,
  type Role,
  type TemporaryPasswordResponse,
  type UserItem,
  type UserListQuery,
} from '@outlay/contracts';
import { users, type Db } from '@outlay/db';
import { AppError } from '../../lib/app-error.ts';
import { uniqueViolationOf } from '../../lib/db-errors.ts';
import { actorOf, auditChange } from '../../lib/audit.ts';
import type { AuthInfo, Ctx } from '../../lib/context.ts';
import { page } from '../../lib/lists.ts';
import { issueTemporaryPassword } from '../../lib/passwords.ts';
import { readScopeCondition, readScopeOf, scopeCondition, scopeOf } from '../../lib/scope.ts';
import { assertVersion, nextVersion, versionConflict, versionIs } from '../../lib/versions.ts';
import { revokeOtherSessions } from '../auth/index.ts';
import {
  activeOwnerCount,
  allOrganizationsAndDepartments,
  emailTaken,
  findDepartment,
  findOrganization,
  findUser,
  findUsers,
  listUsers,
  lockUser,
  usernameTaken,
  usernamesLike,
  type UserFilters,
  type UserRecord,
} from './users.repository.ts';
import { moveWaitingItemsOf } from '../approvals/index.ts';
import { enqueueWebhookEvent } from '../../lib/webhook-outbox.ts';

// ---------------------------------------------------------------------------------------------
// Shared rules
// ---------------------------------------------------------------------------------------------

/** The caller's reach over users: group all, organization their own, department theirs. */
export function userScope(auth: AuthInfo): SQL | undefined {
  return scopeCondition(auth, 'users.manage', {
    organizationId: users.organizationId,
    departmentId: users.departmentId,
    ownerId: users.id,
  });
}

/** Who the caller may see on the user screens: userScope, or a settings reader's reach (never for a change). */
export function userReadScope(auth: AuthInfo): SQL | undefined {
  return readScopeCondition(auth, 'users.manage', {
    organizationId: users.organizationId,
    departmentId: users.departmentId,
    ownerId: users.id,
  });
}

export function iso(d: Date | null): string | null {
  return d ? d.toISOString() : null;
}

export function toUserItem(r: UserRecord): UserItem {
  return {
    id: r.id,
    username: r.username,
    firstName: r.firstName,
    lastName: r.lastName,
    email: r.email,
    phoneNumber: r.phoneNumber,
    role: r.role as Role,
    customRoleId: r.customRoleId,
    status: r.status,
    organization:
      r.organizationId && r.orgName ? { id: r.organizationId, name: r.orgName, code: r.orgCode ?? '' } : null,
    department: r.departmentId && r.deptName ? { id: r.departmentId, name: r.deptName, code: r.deptCode ?? '' } : null,
    manager:
      r.managerId && r.managerUsername
        ? { id: r.managerId, name: `${r.managerFirstName} ${r.managerLastName}`, username: r.managerUsername }
        : null,
    lastLoginAt: iso(r.lastLoginAt),
    passwordChangedAt: iso(r.passwordChangedAt),
    requirePasswordChange: r.requirePasswordChange,
    tempPasswordExpiresAt: iso(r.tempPasswordExpiresAt),
    twoFactorEnabled: r.totpEnabled,
    version: r.version,
    createdAt: r.createdAt.toISOString(),
  };
}

export function fullName(r: { firstName: string; lastName: string }): string {
  return `${r.firstName} ${r.lastName}`;
}

export const notFound = () => new AppError('NOT_FOUND', { message: 'User not found' });

/** Nobody acts on someone who holds more than they do (resetting the owner's password would hand over the owner role). */
export function assertCanManage(auth: AuthInfo, target: { role: string; firstName: string; lastName: string }) {
  if (!canGrantRole(auth.grants, target.role as Role)) {
    throw new AppError('FORBIDDEN', {
      message: `You cannot manage ${fullName(target)}: their role (${ROLE_LABELS[target.role as Role] ?? target.role}) grants more than yours`,
    });
  }
}

function assertCanGrant(auth: AuthInfo, role: Role) {
  if (!canGrantRole(auth.grants, role)) {
    throw new AppError('FORBIDDEN', {
      message: `You cannot grant the role ${ROLE_LABELS[role]}: it has permissions you do not hold`,
    });
  }
}

/** True when the caller may see and place users in this organization. */
export function organizationReachable(auth: AuthInfo, organizationId: string): boolean {
  const scope = scopeOf(auth, 'users.manage');
  return (
    scope === 'group' ||
    ((scope === 'organization' || scope === 'department') && auth.organizationId === organizationId)
  );
}

/** Department-scope (and own-scope) managers place users only in their own department. */
export function departmentRefusal(auth: AuthInfo, departmentId: string | null): string | null {
  const scope = scopeOf(auth, 'users.manage');
  if (scope === 'group' || scope === 'organization') return null;
  if (scope === 'department' && departmentId !== null && departmentId === auth.departmentId) return null;
  return 'You can only place users in your own department';
}

async function checkPlacement(
  ctx: Ctx,
  input: { organizationId: string; departmentId: string | null; managerId: string | null },
  selfId?: string,
) {
  const auth = ctx.auth!;
  const org = await findOrganization(ctx.db, input.organizationId);
  if (!org || !organizationReachable(auth, org.id))
    throw new AppError('NOT_FOUND', { message: 'Organization not found' });
  if (input.departmentId) {
    const dept = await findDepartment(ctx.db, input.departmentId);
    if (!dept) throw new AppError('NOT_FOUND', { message: 'Department not found' });
    if (dept.organizationId !== org.id) {
      throw new AppError('VALIDATION_ERROR', {
        message: `${dept.name} does not belong to ${org.name}`,
        details: [{ path: 'departmentId', message: `${dept.name} does not belong to ${org.name}` }],
      });
    }
  }
  const refusal = departmentRefusal(auth, input.departmentId);
  if (refusal) throw new AppError('FORBIDDEN', { message: refusal });
  if (input.managerId) {
    if (selfId && input.managerId === selfId) {
      throw new AppError('VALIDATION_ERROR', {
        message: 'A user cannot be their own manager',
        details: [{ path: 'managerId', message: 'A user cannot be their own manager' }],
      });
    }
    const mgr = await findUser(ctx.db, input.managerId, userScope(auth));
    if (!mgr) throw new AppError('NOT_FOUND', { message: 'Manager not found' });
  }
}

export function baseUsername(firstName: string): string {
  const plain = firstName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
  return plain.length >= 2 ? plain.slice(0, 40) : `${plain || 'user'}user`.slice(0, 40);
}

/** The first free `base`, `base2`, `base3`… given the names already taken (lower-case). */
export function firstFree(base: string, taken: Set<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}${n}`)) return `${base}${n}`;
}

function uniqueConflict(constraint: string): AppError {
  if (constraint.includes('email'))
    return new AppError('EMAIL_TAKEN', { message: 'This email address is already in use' });
  if (constraint.includes('username')) return new AppError('CONFLICT', { message: 'This username is already taken' });
  return new AppError('CONFLICT', { message: 'Another change got there first; please try again' });
}

export function audit(
  ctx: Ctx,
  tx: Db,
  action: string,
  entityId: string,
  fields: { before?: unknown; after?: unknown; metadata?: unknown },
) {
  return auditChange(tx, actorOf(ctx), { action, entityType: 'user', entityId, ...fields });
}

// ---------------------------------------------------------------------------------------------
// Reads
// ---------------------------------------------------------------------------------------------

function filtersOf(ctx: Ctx, q: Partial<UserListQuery>): UserFilters {
  return {
    scope: userReadScope(ctx.auth!),
    q: q.q,
    organizationId: q.organizationId,
    departmentId: q.departmentId,
    role: q.role,
    status: q.status,
  };
}

export async function listUsersPage(ctx: Ctx, q: UserListQuery) {
  const { rows, total } = await listUsers(ctx.db, filtersOf(ctx, q), q);
  return page(rows.map(toUserItem), total, q);
}

export async function exportUsers(ctx: Ctx, q: Omit<UserListQuery, 'page' | 'pageSize'>): Promise<UserItem[]> {
  const { rows } = await listUsers(ctx.db, filtersOf(ctx, q), q, MAX_EXPORT_ROWS);
  return rows.map(toUserItem);
}

export async function getUser(ctx: Ctx, id: string): Promise<UserItem> {
  const row = await findUser(ctx.db, id, userReadScope(ctx.auth!));
  if (!row) throw notFound();
  return toUserItem(row);
}

/**
 * What the create/edit/import forms and the screens' filters choose from, limited to the
 * caller's reach (a settings reader's for the filters; whether a role is grantable still follows
 * the caller's own grants).
 */
export async function userOptions(ctx: Ctx) {
  const auth = ctx.auth!;
  const { orgs, depts } = await allOrganizationsAndDepartments(ctx.db);
  const scope = readScopeOf(auth, 'users.manage');
  const orgVisible = (id: string) =>
    scope === 'group' || ((scope === 'organization' || scope === 'department') && auth.organizationId === id);
  const deptVisible = (d: { id: string; organizationId: string }) =>
    orgVisible(d.organizationId) && (scope !== 'department' || d.id === auth.departmentId);
  const { rows: managers } = await listUsers(
    ctx.db,
    { scope: userReadScope(auth), status: 'active' },
    { order: 'asc' },
    2000,
  );
  return {
    organizations: orgs
      .filter((o) => orgVisible(o.id))
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((o) => ({ id: o.id, name: o.name, code: o.code, active: o.active })),
    departments: depts
      .filter(deptVisible)
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((d) => ({ id: d.id, organizationId: d.organizationId, name: d.name, code: d.code, active: d.active })),
    roles: (Object.keys(ROLE_LABELS) as Role[]).map((value) => ({
      value,
      label: ROLE_LABELS[value],
      grantable: canGrantRole(auth.grants, value),
    })),
    managers: managers.map((m) => ({
      id: m.id,
      name: fullName(m),
      username: m.username,
      organizationId: m.organizationId,
    })),
  };
}

// ---------------------------------------------------------------------------------------------
// Create and edit
// ---------------------------------------------------------------------------------------------

export interface CreateUserValues {
  firstName: string;
  lastName: string;
  email: string;
  username?: string;
  phoneNumber: string | null;
  role: Role;
  organizationId: string;
  departmentId: string | null;
  managerId: string | null;
}

export async function createUser(ctx: Ctx, input: CreateUserValues): Promise<TemporaryPasswordResponse> {
  const auth = ctx.auth!;
  assertCanGrant(auth, input.role);
  await checkPlacement(ctx, input);
  if (await emailTaken(ctx.db, input.email))
    throw new AppError('EMAIL_TAKEN', { message: 'This email address is already in use' });
  if (input.username && (await usernameTaken(ctx.db, input.username))) {
    throw new AppError('CONFLICT', { message: 'This username is already taken' });
  }
  const temp = await issueTemporaryPassword(ctx.now);
  try {
    const id = await ctx.db.transaction(async (tx) => {
      let username = input.username;
      if (!username) {
        const base = baseUsername(input.firstName);
        username = firstFree(base, await usernamesLike(tx, [base]));
      }
      const values = {
        username,
        email: input.email,
        firstName: input.firstName,
        lastName: input.lastName,
        phoneNumber: input.phoneNumber,
        role: input.role,
        status: 'active' as const,
        organizationId: input.organizationId,
        departmentId: input.departmentId,
        managerId: input.managerId,
      };
      const [row] = await tx
        .insert(users)
        .values({
          ...values,
          ...temp.fields,
          createdAt: ctx.now,
          updatedAt: ctx.now,
        })
        .returning({ id: users.id });
      await audit(ctx, tx, 'user.created', row!.id, {
        after: values,
        metadata: { temporaryPasswordExpiresAt: temp.expiresAt.toISOString() },
      });
      await enqueueWebhookEvent(
        tx,
        'user.created',
        { userId: row!.id, username: values.username, role: values.role, organizationId: values.organizationId },
        ctx.now,
      );
      return row!.id;
    });
    return {
      user: await getUser(ctx, id),
      temporaryPassword: temp.password,
      temporaryPasswordExpiresAt: temp.expiresAt.toISOString(),
    };
  } catch (error) {
    const constraint = uniqueViolationOf(error)?.constraint;
    if (constraint) throw uniqueConflict(constraint);
    throw error;
  }
}

export interface UpdateUserValues {
  firstName: string;
  lastName: string;
  email: string;
  phoneNumber: string | null;
  organizationId: string;
  departmentId: string | null;
  managerId: string | null;
}
const EDITABLE = [
  'firstName',
  'lastName',
  'email',
  'phoneNumber',
  'organizationId',
  'departmentId',
  'managerId',
] as const;

export async function updateUser(
  ctx: Ctx,
  id: string,
  input: UpdateUserValues,
  expectedVersion?: number,
): Promise<UserItem> {
  const auth = ctx.auth!;
  const current = await findUser(ctx.db, id, userScope(auth));
  if (!current) throw notFound();
  if (current.id !== auth.userId) assertCanManage(auth, current);
  await checkPlacement(ctx, input, id);
  if (await emailTaken(ctx.db, input.email, id))
    throw new AppError('EMAIL_TAKEN', { message: 'This email address is already in use' });
  try {
    await ctx.db.transaction(async (tx) => {
      const before = await lockUser(tx, id);
      if (!before) throw notFound();
      assertVersion(before.version, expectedVersion);
      const changed = EDITABLE.filter((k) => before[k] !== input[k]);
      if (changed.length === 0) return;
      const updated = await tx
        .update(users)
        .set({
          ...Object.fromEntries(changed.map((k) => [k, input[k]])),
          updatedAt: ctx.now,
          version: nextVersion(users.version),
        })
        .where(and(eq(users.id, id), versionIs(users.version, expectedVersion)))
        .returning({ id: users.id });
      if (updated.length === 0) throw versionConflict();
      await audit(ctx, tx, 'user.updated', id, {
        before: Object.fromEntries(changed.map((k) => [k, before[k]])),
        after: Object.fromEntries(changed.map((k) => [k, input[k]])),
      });
    });
  } catch (error) {
    const constraint = uniqueViolationOf(error)?.constraint;
    if (constraint) throw uniqueConflict(constraint);
    throw error;
  }
  return getUser(ctx, id);
}

// ---------------------------------------------------------------------------------------------
// Activate and deactivate (one or many)
// ---------------------------------------------------------------------------------------------

/** Changes one user's status inside `tx`; throws an AppError when a rule refuses it. Returns false when nothing changed. */
async function changeStatus(
  ctx: Ctx,
  tx: Db,
  target: UserRecord,
  next: 'active' | 'inactive',
  expectedVersion?: number,
): Promise<boolean> {
  const auth = ctx.auth!;
  if (next === 'inactive') {
    if (target.id === auth.userId) throw new AppError('CONFLICT', { message: 'You cannot deactivate yourself' });
  }
  const before = await lockUser(tx, target.id);
  if (!before) throw notFound();
  assertVersion(before.version, expectedVersion);
  if (before.status === next) return false;
  if (next === 'inactive' && before.role === 'owner' && before.status === 'active') {
    // Lock every active owner so two admins cannot each deactivate "the other" last owner.
    await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.role, 'owner'), eq(users.status, 'active')))
      .for('update');
    if ((await activeOwnerCount(tx)) <= 1) {
      throw new AppError('CONFLICT', {
        message: `${fullName(before)} is the last active owner and cannot be deactivated`,
      });
    }
  }
  assertCanManage(auth, before);
  await tx
    .update(users)
    .set({ status: next, updatedAt: ctx.now, version: nextVersion(users.version) })
    .where(eq(users.id, target.id));
  const revoked = next === 'inactive' ? await revokeOtherSessions(tx, target.id, null, 'user_deactivated', ctx.now) : 0;
  // Their open approvals move to each step's fallback (or up the ladder), audited per request.
  if (next === 'inactive') await moveWaitingItemsOf(tx, target.id, ctx);
  await audit(ctx, tx, next === 'active' ? 'user.activated' : 'user.deactivated', target.id, {
    before: { status: before.status },
    after: { status: next },
    ...(next === 'inactive' ? { metadata: { sessionsRevoked: revoked } } : {}),
  });
  return true;
}

export async function setUserStatus(
  ctx: Ctx,
  id: string,
  next: 'active' | 'inactive',
  expectedVersion?: number,
): Promise<UserItem> {
  const target = await findUser(ctx.db, id, userScope(ctx.auth!));
  if (!target) throw notFound();
  await ctx.db.transaction((tx) => changeStatus(ctx, tx, target, next, expectedVersion));
  return getUser(ctx, id);
}

/** Same rules as one at a time; users a rule refuses are skipped and named, the rest change together. */
export async function bulkSetStatus(ctx: Ctx, ids: string[], next: 'active' | 'inactive'): Promise<BulkUserResult> {
  const unique = [...new Set(ids)];
  const found = await findUsers(ctx.db, unique, userScope(ctx.auth!));
  const byId = new Map(found.map((u) => [u.id, u]));
  const skipped: BulkUserResult['skipped'] = [];
  let changed = 0;
  await ctx.db.transaction(async (tx) => {
    for (const id of unique) {
      const target = byId.get(id);
      if (!target) {
        skipped.push({ id, name: null, reason: 'User not found' });
        continue;
      }
      try {
        // A savepoint per user, so one refusal does not undo the others.
        const did = await tx.transaction((sp) => changeStatus(ctx, sp, target, next));
        if (did) changed++;
        else
          skipped.push({
            id,
            name: fullName(target),
            reason: next === 'active' ? 'Already active' : 'Already inactive',
          });
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        skipped.push({ id, name: fullName(target), reason: error.message });
      }
    }
  });
  return { changed, skipped };
}
