import {
  API_KEY_MAX_ACTIVE,
  API_KEY_MESSAGES,
  API_KEY_PREFIX,
  type ApiKey,
  type ApiKeyCreateInput,
  type ApiKeyCreated,
  type ApiKeyList,
  type Permission,
} from '@outlay/contracts';
import { AppError } from '../../lib/app-error.ts';
import { actorOf, auditChange } from '../../lib/audit.ts';
import { requireAuth, type Ctx } from '../../lib/context.ts';
import { randomToken, sha256 } from '../../lib/crypto.ts';
import * as repo from './api-keys.repository.ts';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function keyStatus(row: Pick<repo.ApiKeyRow, 'revokedAt' | 'expiresAt'>, now: Date): ApiKey['status'] {
  if (row.revokedAt) return 'revoked';
  if (row.expiresAt && row.expiresAt <= now) return 'expired';
  return 'active';
}

function view(row: repo.ApiKeyRow, now: Date): ApiKey {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    permissions: row.permissions as Permission[],
    createdAt: row.createdAt.toISOString(),
    expiresAt: iso(row.expiresAt),
    lastUsedAt: iso(row.lastUsedAt),
    lastUsedIp: row.lastUsedIp,
    revokedAt: iso(row.revokedAt),
    status: keyStatus(row, now),
  };
}

/** Keys are managed from a signed-in session only: a leaked key must not be able to mint more. */
function refuseKeyCaller(ctx: Ctx) {
  if (requireAuth(ctx).apiKey) throw new AppError('FORBIDDEN', { message: API_KEY_MESSAGES.keyCannotManageKeys });
}

export async function listKeys(ctx: Ctx): Promise<ApiKeyList> {
  const rows = await repo.keysOf(ctx.db, requireAuth(ctx).userId);
  return { items: rows.map((r) => view(r, ctx.now)) };
}

export async function createKey(ctx: Ctx, input: ApiKeyCreateInput): Promise<ApiKeyCreated> {
  refuseKeyCaller(ctx);
  const auth = requireAuth(ctx);
  const permissions = [...new Set(input.permissions)];
  if (permissions.some((p) => !auth.permissions.includes(p)))
    throw new AppError('FORBIDDEN', { message: API_KEY_MESSAGES.widerThanCreator });
  // The chosen day is the last one the key works, through its end in UTC.
  const expiresAt = input.expiresOn ? new Date(`${input.expiresOn}T23:59:59.999Z`) : null;
  if (expiresAt && expiresAt <= ctx.now)
    throw new AppError('VALIDATION_ERROR', { message: API_KEY_MESSAGES.expiryInPast });

  const id = crypto.randomUUID();
  const publicId = id.replaceAll('-', '');
  const secret = randomToken(32);
  const row = await ctx.db.transaction(async (tx) => {
    if ((await repo.countActive(tx, auth.userId, ctx.now)) >= API_KEY_MAX_ACTIVE)
      throw new AppError('CONFLICT', { message: API_KEY_MESSAGES.tooMany });
    const inserted = await repo.insertKey(tx, {
      id,
      userId: auth.userId,
      name: input.name,
      prefix: `${API_KEY_PREFIX}${publicId.slice(0, 8)}`,
      secretHash: sha256(secret),
      permissions,
      createdAt: ctx.now,
      expiresAt,
    });
    await auditChange(tx, actorOf(ctx), {
      action: 'api_key.created',
      entityType: 'api_key',
      entityId: id,
      after: { name: input.name, permissions, expiresAt: iso(expiresAt) },
    });
    return inserted;
  });
  return { ...view(row, ctx.now), key: `${API_KEY_PREFIX}${publicId}_${secret}` };
}

export async function revokeKey(ctx: Ctx, id: string): Promise<ApiKey> {
  refuseKeyCaller(ctx);
  const auth = requireAuth(ctx);
  return ctx.db.transaction(async (tx) => {
    const row = await repo.keyOf(tx, { userId: auth.userId, id }, true);
    if (!row) throw new AppError('NOT_FOUND', { message: API_KEY_MESSAGES.notFound });
    if (row.revokedAt) throw new AppError('CONFLICT', { message: API_KEY_MESSAGES.alreadyRevoked });
    await repo.revokeKey(tx, id, ctx.now);
    await auditChange(tx, actorOf(ctx), {
      action: 'api_key.revoked',
      entityType: 'api_key',
      entityId: id,
      before: { name: row.name },
    });
    return view({ ...row, revokedAt: ctx.now }, ctx.now);
  });
}
