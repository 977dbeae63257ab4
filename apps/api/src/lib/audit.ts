import { asc, desc, gt, sql } from 'drizzle-orm';
import { auditEvents, type Db } from '@outlay/db';
import { sha256 } from './crypto.ts';

export interface AuditInput {
  actorId: string | null;
  action: string;
  entityType: string;
  entityId?: string | null;
  ip?: string | null;
  userAgent?: string | null;
  before?: unknown;
  after?: unknown;
  metadata?: unknown;
}

const GENESIS = '0'.repeat(64);
// Serialises writers so each row links to the one committed before it.
const AUDIT_CHAIN_LOCK = 4_242_002;

/** JSON with sorted keys: jsonb reorders keys, so a hash must not depend on their order. */
export function canonical(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

interface HashedFields {
  occurredAt: Date;
  actorId: string | null;
  action: string;
  entityType: string;
  entityId: string | null;
  ip: string | null;
  userAgent: string | null;
  before: unknown;
  after: unknown;
  metadata: unknown;
}

function rowHash(prevHash: string, row: HashedFields): string {
  return sha256(`${prevHash}\n${canonical({ ...row, occurredAt: row.occurredAt.getTime() })}`);
}

/** Appends one event. Call it inside the transaction that makes the change it records. */
export async function writeAudit(tx: Db, input: AuditInput, now: Date): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${AUDIT_CHAIN_LOCK})`);
  const [last] = await tx.select({ hash: auditEvents.hash }).from(auditEvents).orderBy(desc(auditEvents.id)).limit(1);
  const prevHash = last?.hash ?? GENESIS;
  const fields: HashedFields = {
    occurredAt: now,
    actorId: input.actorId,
    action: input.action,
    entityType: input.entityType,
    entityId: input.entityId ?? null,
    ip: input.ip ?? null,
    userAgent: input.userAgent ?? null,
    before: input.before ?? null,
    after: input.after ?? null,
    metadata: input.metadata ?? null,
  };
  await tx.insert(auditEvents).values({ ...fields, prevHash, hash: rowHash(prevHash, fields) });
}

/** Who makes a change: a user (null for the system or an anonymous caller), from where, when. */
export interface AuditActor {
  userId: string | null;
  ip?: string | null;
  userAgent?: string | null;
  now: Date;
}

export type AuditChange = Omit<AuditInput, 'actorId' | 'ip' | 'userAgent'>;

/** The actor of a service context; `auth` is null for calls made before signing in (registration). */
export function actorOf(ctx: {
  auth?: { userId: string } | null;
  ip?: string | null;
  userAgent?: string | null;
  now: Date;
}): AuditActor {
  return { userId: ctx.auth?.userId ?? null, ip: ctx.ip, userAgent: ctx.userAgent, now: ctx.now };
}

/** Records a change made by `actor`. Call it inside the transaction that makes the change. */
export function auditChange(tx: Db, actor: AuditActor, change: AuditChange): Promise<void> {
  return writeAudit(tx, { ...change, actorId: actor.userId, ip: actor.ip, userAgent: actor.userAgent }, actor.now);
}

/** An event as the demo seed writes it in bulk: the same fields the chain hashes. */
export type AuditRowInput = HashedFields;

/**
 * Links rows onto the chain after `prevHash` (null: the chain is empty), in the given order, the
 * way writeAudit would one by one; for bulk history that must verify like live events.
 */
export function linkAuditRows(
  prevHash: string | null,
  rows: readonly AuditRowInput[],
): (AuditRowInput & { prevHash: string; hash: string })[] {
  let prev = prevHash ?? GENESIS;
  return rows.map((row) => {
    const hash = rowHash(prev, row);
    const linked = { ...row, prevHash: prev, hash };
    prev = hash;
    return linked;
  });
}

export interface ChainVerification {
  ok: boolean;
  checked: number;
  firstBrokenId: number | null;
}

/** Walks the chain in id order and names the first row whose link or content does not match. */
export async function verifyAuditChain(db: Db, batchSize = 1000): Promise<ChainVerification> {
  let prevHash = GENESIS;
  let lastId = 0;
  let checked = 0;
  for (;;) {
    const rows = await db
      .select()
      .from(auditEvents)
      .where(gt(auditEvents.id, lastId))
      .orderBy(asc(auditEvents.id))
      .limit(batchSize);
    if (rows.length === 0) return { ok: true, checked, firstBrokenId: null };
    for (const row of rows) {
      const expected = rowHash(prevHash, {
        occurredAt: new Date(row.occurredAt),
        actorId: row.actorId,
        action: row.action,
        entityType: row.entityType,
        entityId: row.entityId,
        ip: row.ip,
        userAgent: row.userAgent,
        before: row.before,
        after: row.after,
        metadata: row.metadata,
      });
      if (row.prevHash !== prevHash || row.hash !== expected) return { ok: false, checked, firstBrokenId: row.id };
      prevHash = row.hash;
      lastId = row.id;
      checked++;
    }
  }
}
