import { sql } from 'drizzle-orm';
import {
  MAX_EXPORT_ROWS,
  MESSAGES,
  canGrantRole,
  missingGrants,
  REGISTRATION_REVIEWED_MESSAGE,
  ROLES,
  ROLE_GRANTS,
  ROLE_LABELS,
  isAuthorizedEmail,
  requestableRoleOptions,
  type ApproveRegistrationInput,
  type ApproveRegistrationResponse,
  type AssignableOrganizations,
  type AssignableRoles,
  type RegistrationConfig,
  type RegistrationExportQuery,
  type RegistrationListQuery,
  type RegistrationRequestInput,
  type RegistrationRequestItem,
  type RegistrationRequestList,
  type RejectRegistrationInput,
  type Role,
} from '@outlay/contracts';
import { registrationRequests, users } from '@outlay/db';
import { AppError } from '../../lib/app-error.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { readScopeOf, scopeOf } from '../../lib/scope.ts';
import { writeAudit } from '../../lib/audit.ts';
import { notifyRegistrationReceived } from '../notifications/index.ts';
import { requireAuth, type Ctx } from '../../lib/context.ts';
import { page, pageWindow } from '../../lib/lists.ts';
import { hashPassword, isCommonPassword, issueTemporaryPassword } from '../../lib/passwords.ts';
import { organizationInScope, requirePermission } from '../../lib/scope.ts';
import * as repo from './registration-requests.repository.ts';
import type { RequestRow } from './registration-requests.repository.ts';
import { reserveAttempt } from '../auth/index.ts';
import { authorizedDomains } from '../settings/index.ts';
import { securityPolicy } from '../security/index.ts';
import { enqueueWebhookEvent } from '../../lib/webhook-outbox.ts';
import type { ExportColumn } from '../../lib/export.ts';

// Each address may file this many requests an hour; enough for typos, too few for spam.
const REGISTRATION_LIMIT = { maxFailures: 10, windowMinutes: 60, lockMinutes: 60 };

export async function getConfig(ctx: Ctx): Promise<RegistrationConfig> {
  return { authorizedDomains: await authorizedDomains(ctx.db), requestableRoles: requestableRoleOptions };
}

async function existingMessage(ctx: Ctx, email: string): Promise<string | null> {
  const open = await ctx.db
    .select({ status: registrationRequests.status })
    .from(registrationRequests)
    .where(
      sql`lower(${registrationRequests.email}) = ${email} AND ${registrationRequests.status} IN ('pending', 'approved')`,
    )
    .limit(1);
  if (open[0]?.status === 'pending') return MESSAGES.registrationPending;
  if (open[0]?.status === 'approved') return MESSAGES.registrationApproved;
  const user = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = ${email}`)
    .limit(1);
  return user.length > 0 ? MESSAGES.registrationApproved : null;
}

export async function submit(ctx: Ctx, input: RegistrationRequestInput): Promise<{ message: string; id: string }> {
  if (!isAuthorizedEmail(input.email, await authorizedDomains(ctx.db))) {
    throw new AppError('VALIDATION_ERROR', {
      message: MESSAGES.emailDomain,
      details: [{ path: 'email', message: MESSAGES.emailDomain }],
    });
  }
  // The minimum length is the security policy's (docs/product.md §3.10 /security), never below the seed's 8.
  const minLength = (await securityPolicy(ctx.db)).passwordMinLength;
  if (input.password.length < minLength) {
    throw new AppError('VALIDATION_ERROR', {
      message: MESSAGES.passwordMinConfigured(minLength),
      details: [{ path: 'password', message: MESSAGES.passwordMinConfigured(minLength) }],
    });
  }
  if (isCommonPassword(input.password)) {
    throw new AppError('VALIDATION_ERROR', {
      message: MESSAGES.passwordTooCommon,
      details: [{ path: 'password', message: MESSAGES.passwordTooCommon }],
    });
  }
  if (ctx.ip) {
    const gate = await reserveAttempt(ctx.db, `register:${ctx.ip}`, REGISTRATION_LIMIT, ctx.now);
    if (gate.lockedUntil) {
      throw new AppError('TOO_MANY_ATTEMPTS', {
        message: 'Too many registration requests from this address. Please try again later.',
      });
    }
  }
  const email = input.email.toLowerCase();
  const conflict = await existingMessage(ctx, email);
  if (conflict) throw new AppError('REGISTRATION_EXISTS', { message: conflict });
  const passwordHash = await hashPassword(input.password);
  try {
    return await ctx.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(registrationRequests)
        .values({
          firstName: input.firstName,
          lastName: input.lastName,
          email,
          passwordHash,
          requestedRole: input.requestedRole,
          message: input.message || null,
          ip: ctx.ip,
          createdAt: ctx.now,
        })
        .returning({ id: registrationRequests.id });
      await writeAudit(
        tx,
        {
          actorId: null,
          action: 'registration.submitted',
          entityType: 'registration_request',
          entityId: row!.id,
          ip: ctx.ip,
          userAgent: ctx.userAgent,
          after: { email, requestedRole: input.requestedRole },
        },
        ctx.now,
      );
      await notifyRegistrationReceived(
        tx,
        {
          id: row!.id,
          firstName: input.firstName,
          lastName: input.lastName,
          email,
          requestedRole: input.requestedRole,
        },
        ctx.now,
      );
      return { message: 'Registration request submitted', id: row!.id };
    });
  } catch (error) {
    // Two requests for one address at the same moment: the unique index lets one through.
    if (isUniqueViolation(error))
      throw new AppError('REGISTRATION_EXISTS', {
        message: (await existingMessage(ctx, email)) ?? MESSAGES.registrationPending,
      });
    throw error;
  }
}

// ---- Review of registration requests (permission users.manage) ----

const REVIEW_PERMISSION = 'users.manage' as const;
const REQUEST_NOT_FOUND = 'Registration request not found';

export function toRequestItem(row: RequestRow): RegistrationRequestItem {
  return {
    id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    requestedRole: row.requestedRole,
    message: row.message,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    reviewedAt: row.reviewedAt ? row.reviewedAt.toISOString() : null,
    reviewedBy: row.reviewerId
      ? { id: row.reviewerId, name: `${row.reviewerFirstName} ${row.reviewerLastName}` }
      : null,
    decisionReason: row.decisionReason,
    approvedUser:
      row.approvedUserId && row.approvedUsername ? { id: row.approvedUserId, username: row.approvedUsername } : null,
  };
}

/**
 * A registration request belongs to no organization until it is approved, so only user
 * administrators at group scope review them; an organization-scoped `users.manage` (through
 * a custom role) must not see other companies' applicants.
 */
function requireGroupReviewer(ctx: Ctx): void {
  if (scopeOf(ctx.auth!, 'users.manage') !== 'group') {
    throw new AppError('FORBIDDEN', { message: 'Only group-level user administrators review registration requests' });
  }
}

/** Reading the requests: a group reviewer, or a group-wide settings reader (who decides nothing). */
function requireGroupReader(ctx: Ctx): void {
  if (readScopeOf(ctx.auth!, 'users.manage') !== 'group') {
    throw new AppError('FORBIDDEN', { message: 'Only group-level user administrators review registration requests' });
  }
}

export async function listRequests(ctx: Ctx, query: RegistrationListQuery): Promise<RegistrationRequestList> {
  requireGroupReader(ctx);
  const { rows, total } = await repo.listRequests(ctx.db, { filter: query, window: pageWindow(query) });
  return page(rows.map(toRequestItem), total, query);
}

export async function exportRequests(ctx: Ctx, query: RegistrationExportQuery): Promise<RegistrationRequestItem[]> {
  requireGroupReader(ctx);
  const { rows } = await repo.listRequests(ctx.db, { filter: query, window: { limit: MAX_EXPORT_ROWS, offset: 0 } });
  return rows.map(toRequestItem);
}

const roleLabel = (role: string) => ROLE_LABELS[role as Role] ?? role;

export const REQUEST_EXPORT_COLUMNS: ExportColumn<RegistrationRequestItem>[] = [
  { header: 'First name', value: (r: RegistrationRequestItem) => r.firstName },
  { header: 'Last name', value: (r: RegistrationRequestItem) => r.lastName },
  { header: 'E-mail', value: (r: RegistrationRequestItem) => r.email },
  { header: 'Requested role', value: (r: RegistrationRequestItem) => roleLabel(r.requestedRole) },
  { header: 'Status', value: (r: RegistrationRequestItem) => r.status },
  { header: 'Submitted', value: (r: RegistrationRequestItem) => r.createdAt, type: 'datetime' },
  { header: 'Reviewed by', value: (r: RegistrationRequestItem) => r.reviewedBy?.name ?? '' },
  { header: 'Reviewed at', value: (r: RegistrationRequestItem) => r.reviewedAt ?? '' },
  { header: 'Reason', value: (r: RegistrationRequestItem) => r.decisionReason ?? '' },
  { header: 'Username', value: (r: RegistrationRequestItem) => r.approvedUser?.username ?? '' },
  { header: 'Message', value: (r: RegistrationRequestItem) => r.message ?? '' },
];

export async function getRequest(ctx: Ctx, id: string): Promise<RegistrationRequestItem> {
  requireGroupReader(ctx);
  const row = await repo.findRequest(ctx.db, id);
  if (!row) throw new AppError('NOT_FOUND', { message: REQUEST_NOT_FOUND });
  return toRequestItem(row);
}

export async function getAssignableOrganizations(ctx: Ctx): Promise<AssignableOrganizations> {
  requireGroupReviewer(ctx);
  const auth = requireAuth(ctx);
  const scope = requirePermission(auth, REVIEW_PERMISSION);
  return {
    items: await repo.assignableOrganizations(ctx.db, { onlyId: scope === 'group' ? undefined : auth.organizationId }),
  };
}

export function getAssignableRoles(ctx: Ctx): AssignableRoles {
  requireGroupReviewer(ctx);
  const auth = requireAuth(ctx);
  return {
    items: ROLES.filter((role) => canGrantRole(auth.grants, role)).map((value) => ({
      value,
      label: ROLE_LABELS[value],
    })),
  };
}

/** `Omar` → `omar`; accents dropped, only letters and digits kept. */
export function usernameBase(firstName: string): string {
  const base = firstName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
  return base || 'user';
}

/** The first of `base`, `base2`, `base3`, … nobody has yet. */
export function nextFreeUsername(base: string, taken: readonly string[]): string {
  const set = new Set(taken.map((t) => t.toLowerCase()));
  if (!set.has(base)) return base;
  for (let n = 2; ; n++) if (!set.has(`${base}${n}`)) return `${base}${n}`;
}

async function rejectIfReviewed(ctx: Ctx, id: string): Promise<never> {
  if (!(await repo.requestExists(ctx.db, id))) throw new AppError('NOT_FOUND', { message: REQUEST_NOT_FOUND });
  throw new AppError('CONFLICT', { message: REGISTRATION_REVIEWED_MESSAGE });
}

export async function approveRequest(
  ctx: Ctx,
  id: string,
  input: ApproveRegistrationInput,
): Promise<ApproveRegistrationResponse> {
  requireGroupReviewer(ctx);
  const auth = requireAuth(ctx);
  if (!canGrantRole(auth.grants, input.role)) {
    const wanted = ROLE_GRANTS[input.role];
    const missing = missingGrants(auth.grants, wanted.permissions, wanted.scope);
    throw new AppError('FORBIDDEN', {
      message:
        input.role === 'owner' && auth.role !== 'owner'
          ? 'Only an owner can make another owner'
          : `You cannot grant the role ${ROLE_LABELS[input.role]}: it holds permissions you do not have${missing.length ? ` (${missing.join(', ')})` : ''}`,
    });
  }
  if (!organizationInScope(auth, REVIEW_PERMISSION, input.organizationId))
    throw new AppError('NOT_FOUND', { message: 'Organization not found' });
  const org = await repo.organizationById(ctx.db, input.organizationId);
  if (!org) throw new AppError('NOT_FOUND', { message: 'Organization not found' });
  if (!org.active) {
    throw new AppError('VALIDATION_ERROR', {
      message: 'This organization is inactive',
      details: [{ path: 'organizationId', message: 'This organization is inactive' }],
    });
  }
  const departmentId = input.departmentId ?? null;
  if (departmentId) {
    const dept = await repo.departmentById(ctx.db, departmentId);
    if (!dept || dept.organizationId !== org.id) {
      const message = 'The department does not belong to the selected organization';
      throw new AppError('VALIDATION_ERROR', { message, details: [{ path: 'departmentId', message }] });
    }
    if (!dept.active) {
      throw new AppError('VALIDATION_ERROR', {
        message: 'This department is inactive',
        details: [{ path: 'departmentId', message: 'This department is inactive' }],
      });
    }
  }

  const temp = await issueTemporaryPassword(ctx.now);
  const expiresAt = temp.expiresAt;

  // A username taken by a concurrent approval between the pick and the insert: pick again.
  for (let attempt = 0; ; attempt++) {
    try {
      const created = await ctx.db.transaction(async (tx) => {
        const request = await repo.claimPending(tx, {
          id,
          status: 'approved',
          reviewerId: auth.userId,
          reason: null,
          now: ctx.now,
        });
        if (!request) return null;
        const email = request.email.toLowerCase();
        if (await repo.emailTaken(tx, email)) {
          throw new AppError('CONFLICT', { message: 'A user with this e-mail already exists' });
        }
        const base = usernameBase(request.firstName);
        const username = nextFreeUsername(base, await repo.usernamesLike(tx, base));
        const user = await repo.insertUser(tx, {
          username,
          email,
          firstName: request.firstName,
          lastName: request.lastName,
          role: input.role,
          status: 'active',
          organizationId: org.id,
          departmentId,
          ...temp.fields,
          createdAt: ctx.now,
          updatedAt: ctx.now,
        });
        await repo.setApprovedUser(tx, { id, userId: user.id });
        const common = { actorId: auth.userId, ip: ctx.ip, userAgent: ctx.userAgent };
        await writeAudit(
          tx,
          {
            ...common,
            action: 'registration.approved',
            entityType: 'registration_request',
            entityId: id,
            before: { status: 'pending', requestedRole: request.requestedRole },
            after: {
              status: 'approved',
              role: input.role,
              organizationId: org.id,
              departmentId,
              approvedUserId: user.id,
            },
          },
          ctx.now,
        );
        await writeAudit(
          tx,
          {
            ...common,
            action: 'user.created',
            entityType: 'user',
            entityId: user.id,
            after: {
              username,
              email,
              firstName: request.firstName,
              lastName: request.lastName,
              role: input.role,
              organizationId: org.id,
              departmentId,
              status: 'active',
            },
            metadata: {
              via: 'registration',
              registrationRequestId: id,
              requirePasswordChange: true,
              tempPasswordExpiresAt: expiresAt.toISOString(),
            },
          },
          ctx.now,
        );
        await enqueueWebhookEvent(
          tx,
          'user.created',
          { userId: user.id, username, role: input.role, organizationId: org.id },
          ctx.now,
        );
        return { userId: user.id, username, email, firstName: request.firstName, lastName: request.lastName };
      });
      if (!created) return await rejectIfReviewed(ctx, id);
      return {
        user: {
          id: created.userId,
          username: created.username,
          email: created.email,
          firstName: created.firstName,
          lastName: created.lastName,
          role: input.role,
          status: 'active',
          organizationId: org.id,
          departmentId,
          tempPasswordExpiresAt: expiresAt.toISOString(),
        },
        temporaryPassword: temp.password,
        request: await getRequest(ctx, id),
      };
    } catch (error) {
      if (attempt < 3 && isUniqueViolation(error)) continue;
      if (isUniqueViolation(error))
        throw new AppError('CONFLICT', { message: 'A user with this username or e-mail already exists' });
      throw error;
    }
  }
}

export async function rejectRequest(
  ctx: Ctx,
  id: string,
  input: RejectRegistrationInput,
): Promise<RegistrationRequestItem> {
  requireGroupReviewer(ctx);
  const auth = requireAuth(ctx);
  const done = await ctx.db.transaction(async (tx) => {
    const request = await repo.claimPending(tx, {
      id,
      status: 'rejected',
      reviewerId: auth.userId,
      reason: input.reason,
      now: ctx.now,
    });
    if (!request) return false;
    await writeAudit(
      tx,
      {
        actorId: auth.userId,
        action: 'registration.rejected',
        entityType: 'registration_request',
        entityId: id,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        before: { status: 'pending' },
        after: { status: 'rejected', reason: input.reason },
      },
      ctx.now,
    );
    return true;
  });
  if (!done) return rejectIfReviewed(ctx, id);
  return getRequest(ctx, id);
}
