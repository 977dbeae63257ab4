import type { Delegation, DelegationInput } from '@outlay/contracts';
import { serverFormat } from '@outlay/contracts/format';
import { AppError } from '../../lib/app-error.ts';
import { writeAudit } from '../../lib/audit.ts';
import { requireAuth, type AuthInfo, type Ctx } from '../../lib/context.ts';
import { notify } from '../../lib/notify.ts';
import { scopeCondition, scopeOf } from '../../lib/scope.ts';
import { applyDelegation, endDelegation, type Actor } from '../approvals/index.ts';
// The one lookup of a person by id (with status and place), as the workflow simulator uses it.
import { userById } from '../workflows/index.ts';
import * as repo from './delegations.repository.ts';
import type { DelegationRow } from './delegations.repository.ts';

// Out of office: a person away hands their approvals to a delegate for a period; the approval
// engine moves the waiting items (approvals/approvals.reassignment.ts).

const DELEGATION_NOT_FOUND = 'Delegation not found';

export function delegationState(
  d: { startsAt: Date; endsAt: Date; revokedAt: Date | null; endedAt: Date | null },
  now: Date,
): Delegation['state'] {
  if (d.revokedAt) return 'revoked';
  if (d.endsAt.getTime() <= now.getTime() || (d.endedAt && d.endedAt.getTime() <= now.getTime())) return 'ended';
  if (d.startsAt.getTime() <= now.getTime()) return 'active';
  return 'scheduled';
}

function toDelegation(row: DelegationRow, now: Date): Delegation {
  return {
    id: row.id,
    delegator: { id: row.delegatorId, name: row.delegatorName },
    delegate: { id: row.delegateId, name: row.delegateName },
    startsAt: row.startsAt.toISOString(),
    endsAt: row.endsAt.toISOString(),
    reason: row.reason,
    state: delegationState(row, now),
    movedCount: row.movedCount,
    createdAt: row.createdAt.toISOString(),
  };
}

/** True when a user (by organization/department) is inside the caller's scope for a permission. */
function personInScope(
  auth: AuthInfo,
  permission: 'approvals.manage',
  person: { id: string; organizationId: string | null; departmentId: string | null },
): boolean {
  const s = scopeOf(auth, permission);
  switch (s) {
    case 'group':
      return true;
    case 'organization':
      return !!person.organizationId && person.organizationId === auth.organizationId;
    case 'department':
      return !!person.departmentId && person.departmentId === auth.departmentId;
    case 'own':
      return person.id === auth.userId;
    default:
      return false;
  }
}

export async function listDelegations(ctx: Ctx, query: { all?: 'true' | 'false' }): Promise<{ items: Delegation[] }> {
  const auth = requireAuth(ctx);
  if (query.all === 'true') {
    if (!scopeOf(auth, 'approvals.manage'))
      throw new AppError('FORBIDDEN', {
        message: "Seeing everyone's delegations needs the approvals management permission",
      });
    const rows = await repo.listDelegations(ctx.db, {
      scope: scopeCondition(auth, 'approvals.manage', repo.delegatorColumns),
    });
    return { items: rows.map((r) => toDelegation(r, ctx.now)) };
  }
  const rows = await repo.listDelegations(ctx.db, { involving: auth.userId });
  return { items: rows.map((r) => toDelegation(r, ctx.now)) };
}

async function getDelegation(ctx: Ctx, id: string): Promise<Delegation> {
  const [row] = await repo.listDelegations(ctx.db, { id });
  if (!row) throw new AppError('NOT_FOUND', { message: DELEGATION_NOT_FOUND });
  return toDelegation(row, ctx.now);
}

function invalid(path: string, message: string): AppError {
  return new AppError('VALIDATION_ERROR', { message, details: [{ path, message }] });
}

const nameOf = (u: { firstName: string; lastName: string }) => `${u.firstName} ${u.lastName}`;

const actorOf = (ctx: Ctx): Actor => ({
  userId: requireAuth(ctx).userId,
  now: ctx.now,
  ip: ctx.ip,
  userAgent: ctx.userAgent,
});

export async function createDelegation(ctx: Ctx, input: DelegationInput): Promise<Delegation> {
  const auth = requireAuth(ctx);
  const delegatorId = input.delegatorId ?? auth.userId;
  const delegator = await userById(ctx.db, delegatorId);
  if (delegatorId !== auth.userId) {
    if (!scopeOf(auth, 'approvals.manage')) {
      throw new AppError('FORBIDDEN', {
        message: "Setting up someone else's out-of-office needs the approvals management permission",
      });
    }
    if (!delegator || !personInScope(auth, 'approvals.manage', delegator))
      throw invalid('delegatorId', 'This user does not exist');
  }
  if (!delegator) throw invalid('delegatorId', 'This user does not exist');
  if (input.delegateId === delegatorId) throw invalid('delegateId', 'Choose someone other than the person who is away');
  const delegate = await userById(ctx.db, input.delegateId);
  if (!delegate) throw invalid('delegateId', 'This user does not exist');
  if (delegate.status !== 'active') throw invalid('delegateId', `${nameOf(delegate)} is not an active user`);
  const startsAt = new Date(input.startsAt);
  const endsAt = new Date(input.endsAt);
  if (endsAt.getTime() <= ctx.now.getTime()) throw invalid('endsAt', 'The end must be in the future');
  if (await repo.overlapping(ctx.db, { delegatorId, startsAt, endsAt, now: ctx.now })) {
    throw new AppError('CONFLICT', {
      message: `${nameOf(delegator)} already has a delegation in this period; revoke it first`,
    });
  }
  const names = { delegatorName: nameOf(delegator), delegateName: nameOf(delegate) };
  const id = await ctx.db.transaction(async (tx) => {
    // Re-checked under the transaction so two overlapping submissions cannot both pass.
    if (await repo.overlapping(tx, { delegatorId, startsAt, endsAt, now: ctx.now })) {
      throw new AppError('CONFLICT', {
        message: `${nameOf(delegator)} already has a delegation in this period; revoke it first`,
      });
    }
    const newId = await repo.insertDelegation(tx, {
      delegatorId,
      delegateId: input.delegateId,
      startsAt,
      endsAt,
      reason: input.reason ?? null,
      createdById: auth.userId,
      createdAt: ctx.now,
    });
    let moved = 0;
    if (startsAt.getTime() <= ctx.now.getTime()) {
      // The engine's own move: each request locked like a decision, audited, on its timeline.
      moved = await applyDelegation(tx, { id: newId, delegatorId, delegateId: input.delegateId }, actorOf(ctx));
      await repo.setDelegation(tx, newId, { appliedAt: ctx.now });
    }
    await writeAudit(
      tx,
      {
        actorId: auth.userId,
        action: 'delegation.created',
        entityType: 'delegation',
        entityId: newId,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        after: {
          delegatorId,
          delegateId: input.delegateId,
          startsAt: startsAt.toISOString(),
          endsAt: endsAt.toISOString(),
          reason: input.reason ?? null,
        },
        metadata: { moved },
      },
      ctx.now,
    );
    await notify(
      tx,
      [input.delegateId],
      {
        type: 'delegation.created',
        title: `You approve for ${names.delegatorName} from ${serverFormat.date(startsAt)} to ${serverFormat.date(endsAt)}`,
        body:
          moved > 0
            ? `${serverFormat.plural(moved, 'waiting item')} ${moved === 1 ? 'was' : 'were'} moved to your queue.`
            : null,
        link: '/approvals',
        entityType: 'delegation',
        entityId: newId,
      },
      ctx.now,
    );
    return newId;
  });
  return getDelegation(ctx, id);
}

export async function revokeDelegation(ctx: Ctx, id: string): Promise<Delegation> {
  const auth = requireAuth(ctx);
  const [row] = await repo.listDelegations(ctx.db, { id });
  if (!row) throw new AppError('NOT_FOUND', { message: DELEGATION_NOT_FOUND });
  if (row.delegatorId !== auth.userId) {
    const delegator = await userById(ctx.db, row.delegatorId);
    const manages = !!delegator && personInScope(auth, 'approvals.manage', delegator);
    if (!manages) {
      if (row.delegateId === auth.userId) {
        throw new AppError('FORBIDDEN', {
          message: 'Only the person away or an approvals manager can revoke this delegation',
        });
      }
      throw new AppError('NOT_FOUND', { message: DELEGATION_NOT_FOUND });
    }
  }
  await ctx.db.transaction(async (tx) => {
    const locked = await repo.lockDelegation(tx, id);
    if (!locked) throw new AppError('NOT_FOUND', { message: DELEGATION_NOT_FOUND });
    const state = delegationState(locked, ctx.now);
    if (state === 'revoked') throw new AppError('CONFLICT', { message: 'This delegation has already been revoked' });
    if (state === 'ended') throw new AppError('CONFLICT', { message: 'This delegation has already ended' });
    // Open delegated items go back to the person they came from (or up, if they have left).
    const handedBack = await endDelegation(
      tx,
      { id, delegatorId: row.delegatorId, delegateId: row.delegateId },
      actorOf(ctx),
    );
    await repo.setDelegation(tx, id, { revokedAt: ctx.now, endedAt: ctx.now });
    await writeAudit(
      tx,
      {
        actorId: auth.userId,
        action: 'delegation.revoked',
        entityType: 'delegation',
        entityId: id,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        before: { state },
        after: { state: 'revoked' },
        metadata: { handedBack },
      },
      ctx.now,
    );
    await notify(
      tx,
      [row.delegateId],
      {
        type: 'delegation.revoked',
        title: `You no longer approve for ${row.delegatorName}`,
        body:
          handedBack > 0
            ? `${handedBack} waiting ${handedBack === 1 ? 'item went' : 'items went'} back to ${row.delegatorName}.`
            : null,
        link: '/approvals',
        entityType: 'delegation',
        entityId: id,
      },
      ctx.now,
    );
  });
  return getDelegation(ctx, id);
}
