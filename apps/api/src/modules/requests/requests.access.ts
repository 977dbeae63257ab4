// Who may see a request and who may act on it as its requester.
import { or, sql, type SQL } from 'drizzle-orm';
import { spendingRequests, type Db } from '@outlay/db';
import { AppError } from '../../lib/app-error.ts';
import { requireAuth, type AuthInfo, type Ctx } from '../../lib/context.ts';
import { scopeCondition, scopeOf } from '../../lib/scope.ts';
import * as repo from './requests.repository.ts';
import type { RequestRow } from './requests.repository.ts';

export const NOT_FOUND = 'Request not found';
export function notFound(): AppError {
  return new AppError('NOT_FOUND', { message: NOT_FOUND });
}

/**
 * Who may see one request: the requester; holders of
 * requests.read.scope whose scope covers it; anyone with an assignment on it; requests.pay
 * holders in scope.
 */
export function visibilityCondition(auth: AuthInfo): SQL {
  const parts: SQL[] = [sql`${spendingRequests.requesterId} = ${auth.userId}`];
  const columns = {
    organizationId: spendingRequests.organizationId,
    departmentId: spendingRequests.departmentId,
    ownerId: spendingRequests.requesterId,
  };
  if (scopeOf(auth, 'requests.read.scope'))
    parts.push(scopeCondition(auth, 'requests.read.scope', columns) ?? sql`true`);
  if (scopeOf(auth, 'requests.pay')) {
    parts.push(
      scopeCondition(auth, 'requests.pay', {
        organizationId: spendingRequests.organizationId,
        ownerId: spendingRequests.requesterId,
      }) ?? sql`true`,
    );
  }
  parts.push(
    sql`EXISTS (SELECT 1 FROM approval_assignments va WHERE va.request_id = ${spendingRequests.id} AND va.approver_id = ${auth.userId})`,
  );
  return or(...parts)!;
}

/**
 * The request row if the caller may see it, else 404 "Request not found" (never 403, so ids
 * cannot be probed). Pass the transaction as `db` inside one; `forUpdate` locks the row.
 */
export async function findVisibleRequest(
  ctx: Ctx,
  id: string,
  db: Db = ctx.db,
  options: { forUpdate?: boolean } = {},
): Promise<RequestRow> {
  const auth = requireAuth(ctx);
  const row = await repo.findRequest(db, { id, condition: visibilityCondition(auth), forUpdate: options.forUpdate });
  if (!row) throw notFound();
  return row;
}

export function requireRequester(auth: AuthInfo, r: RequestRow, doing: string): void {
  if (r.requesterId !== auth.userId)
    throw new AppError('FORBIDDEN', { message: `Only the requester can ${doing} this request` });
}
