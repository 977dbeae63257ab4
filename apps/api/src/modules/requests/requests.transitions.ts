// The requester's and finance's moves of one request: the request is found and locked here (who
// may see it, who raised it), the approvals module does the move, and the answer is the request.
import type { PayRequestInput, RequestDetail, RerouteInput } from '@outlay/contracts';
import { spendingRequests, type Db } from '@outlay/db';
import { AppError } from '../../lib/app-error.ts';
import { requireAuth, type Ctx } from '../../lib/context.ts';
import { withIdempotency, type Outcome } from '../../lib/idempotency.ts';
import { organizationInScope, scopeCondition } from '../../lib/scope.ts';
import { actorOf, cancel, lockRequest, pay, reroute, respond, submit } from '../approvals/index.ts';
import { findVisibleRequest, requireRequester } from './requests.access.ts';
import { getRequestDetail } from './requests.detail.ts';

export const SUBMIT_ROUTE = 'POST /api/requests/:id/submit';

const notFound = () => new AppError('NOT_FOUND', { message: 'Request not found' });

async function tx<T>(ctx: Ctx, run: (tx: Db) => Promise<T>): Promise<T> {
  return ctx.db.transaction((raw) => run(raw as unknown as Db));
}

export async function submitRequest(ctx: Ctx, id: string, key: string | undefined): Promise<Outcome<RequestDetail>> {
  const auth = requireAuth(ctx);
  return withIdempotency(ctx, { key, route: SUBMIT_ROUTE, body: { id } }, async (t) => {
    const r = await findVisibleRequest(ctx, id, t, { forUpdate: true });
    requireRequester(auth, r, 'submit');
    await submit(t, r, actorOf(ctx));
    return { status: 200, body: await getRequestDetail(ctx, id, t) };
  });
}

export async function cancelRequest(ctx: Ctx, id: string, reason: string | null | undefined): Promise<RequestDetail> {
  const auth = requireAuth(ctx);
  return tx(ctx, async (t) => {
    const r = await findVisibleRequest(ctx, id, t, { forUpdate: true });
    requireRequester(auth, r, 'cancel');
    await cancel(t, r, reason ?? null, actorOf(ctx));
    return getRequestDetail(ctx, id, t);
  });
}

export async function respondToRequest(ctx: Ctx, id: string, message: string): Promise<RequestDetail> {
  const auth = requireAuth(ctx);
  return tx(ctx, async (t) => {
    const r = await findVisibleRequest(ctx, id, t, { forUpdate: true });
    requireRequester(auth, r, 'answer');
    await respond(t, r, message, actorOf(ctx));
    return getRequestDetail(ctx, id, t);
  });
}

export async function payRequest(ctx: Ctx, id: string, input: PayRequestInput): Promise<RequestDetail> {
  const auth = requireAuth(ctx);
  return tx(ctx, async (t) => {
    const r = await findVisibleRequest(ctx, id, t, { forUpdate: true });
    if (!organizationInScope(auth, 'requests.pay', r.organizationId)) throw notFound();
    await pay(t, r, input, actorOf(ctx));
    return getRequestDetail(ctx, id, t);
  });
}

export async function rerouteRequest(ctx: Ctx, id: string, input: RerouteInput): Promise<RequestDetail> {
  const auth = requireAuth(ctx);
  const scope = scopeCondition(auth, 'approvals.manage', { organizationId: spendingRequests.organizationId });
  return tx(ctx, async (t) => {
    const r = await lockRequest(t, id, scope);
    if (!r) throw notFound();
    await reroute(t, r, { workflowId: input.workflowId ?? null, note: input.note ?? null }, actorOf(ctx));
    return getRequestDetail(ctx, id, t);
  });
}
