import { and, eq } from 'drizzle-orm';
import { idempotencyKeys, type Db } from '@outlay/db';
import { AppError } from './app-error.ts';
import { canonical } from './audit.ts';
import { requireAuth, type Ctx } from './context.ts';
import { sha256 } from './crypto.ts';

export interface Outcome<T> {
  status: number;
  body: T;
  /** True when the answer is the one stored for an earlier call with the same key. */
  replayed: boolean;
}

/**
 * Runs a money-creating change once per `Idempotency-Key` (docs/product.md §2.13). The key row is
 * inserted in the change's own transaction: a concurrent retry's insert waits on it and then
 * replays the stored answer, and a failed attempt rolls the key back so a retry runs again.
 * Without a key the change simply runs in a transaction.
 */
export async function withIdempotency<T>(
  ctx: Ctx,
  call: { key: string | undefined; route: string; body: unknown },
  run: (tx: Db) => Promise<{ status: number; body: T }>,
): Promise<Outcome<T>> {
  const { key, route } = call;
  if (key === undefined) {
    const result = await ctx.db.transaction((tx) => run(tx as unknown as Db));
    return { ...result, replayed: false };
  }
  if (key.length < 1 || key.length > 200 || !/^[\x21-\x7e]+$/.test(key)) {
    throw new AppError('VALIDATION_ERROR', {
      message: 'The Idempotency-Key header must be 1 to 200 visible ASCII characters',
    });
  }
  const userId = requireAuth(ctx).userId;
  const requestHash = sha256(canonical(call.body));
  return ctx.db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const inserted = await tx
      .insert(idempotencyKeys)
      .values({ userId, key, route, requestHash, createdAt: ctx.now })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    if (inserted.length === 0) {
      const [row] = await tx
        .select()
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key), eq(idempotencyKeys.route, route)));
      if (!row || row.statusCode === null) {
        throw new AppError('CONFLICT', {
          message: 'A request with this Idempotency-Key is still being processed; try again',
        });
      }
      if (row.requestHash !== requestHash) {
        throw new AppError('CONFLICT', { message: 'This Idempotency-Key was already used for a different request' });
      }
      return { status: row.statusCode, body: row.response as T, replayed: true };
    }
    const result = await run(tx);
    await tx
      .update(idempotencyKeys)
      .set({ statusCode: result.status, response: result.body as object })
      .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key), eq(idempotencyKeys.route, route)));
    return { ...result, replayed: false };
  });
}

/** The header's value, if the client sent one. */
export function idempotencyKeyOf(headers: Record<string, string | string[] | undefined>): string | undefined {
  const value = headers['idempotency-key'];
  return Array.isArray(value) ? value[0] : value;
}
