import {
  REQUEST_STATUS_LABELS,
  requestReference,
  type CreateRequestInput,
  type RequestComment,
  type RequestDetail,
  type RequestStatus,
  type UpdateRequestInput,
} from '@outlay/contracts';
import { addMoney, amountDigitsProblem, compareMoney, toAmountString } from '@outlay/contracts/money';
import { type spendingRequests, type Db } from '@outlay/db';
import { AppError } from '../../lib/app-error.ts';
import { writeAudit } from '../../lib/audit.ts';
import { requireAuth, type Ctx } from '../../lib/context.ts';
import { withIdempotency, type Outcome } from '../../lib/idempotency.ts';
import { assertVersion, versionConflict } from '../../lib/versions.ts';
import { notify, recordRequestEvent } from '../../lib/notify.ts';
import * as repo from './requests.repository.ts';
import * as writes from './requests.writes.ts';
import { findVisibleRequest, requireRequester } from './requests.access.ts';
import { EDITABLE, getRequestDetail, toComment } from './requests.detail.ts';
import { callerOrganization, conversions } from './requests.form.ts';

export const CREATE_ROUTE = 'POST /api/requests';

function invalid(details: { path: string; message: string }[]): AppError {
  return new AppError('VALIDATION_ERROR', { message: details[0]!.message, details });
}

interface References {
  departmentId?: string | null;
  categoryId?: string | null;
  vendorId?: string | null;
  lineItems?: { categoryId?: string | null }[];
  allocations?: { departmentId: string }[];
}

/** Department, category and vendor must belong to the organization (and be usable). */
async function checkReferences(db: Db, organizationId: string, input: References): Promise<void> {
  const issues: { path: string; message: string }[] = [];
  const deptIds = [input.departmentId, ...(input.allocations ?? []).map((a) => a.departmentId)].filter(
    (x): x is string => Boolean(x),
  );
  const depts = new Map((await repo.departmentsByIds(db, [...new Set(deptIds)])).map((d) => [d.id, d]));
  const deptOk = (id: string) => {
    const d = depts.get(id);
    return d !== undefined && d.organizationId === organizationId && d.active;
  };
  if (input.departmentId && !deptOk(input.departmentId))
    issues.push({ path: 'departmentId', message: 'Choose a department of your organization' });
  (input.allocations ?? []).forEach((a, i) => {
    if (!deptOk(a.departmentId))
      issues.push({
        path: `allocations.${i}.departmentId`,
        message: 'Allocate only to departments of your organization',
      });
  });
  const catIds = [input.categoryId, ...(input.lineItems ?? []).map((li) => li.categoryId)].filter((x): x is string =>
    Boolean(x),
  );
  const cats = new Map((await repo.categoriesByIds(db, [...new Set(catIds)])).map((c) => [c.id, c]));
  const catOk = (id: string) => {
    const c = cats.get(id);
    return c !== undefined && c.active && (c.organizationId === null || c.organizationId === organizationId);
  };
  if (input.categoryId && !catOk(input.categoryId))
    issues.push({ path: 'categoryId', message: 'Choose an active category of your organization' });
  (input.lineItems ?? []).forEach((li, i) => {
    if (li.categoryId && !catOk(li.categoryId))
      issues.push({ path: `lineItems.${i}.categoryId`, message: 'Choose an active category of your organization' });
  });
  if (input.vendorId) {
    const vendor = await repo.vendorById(db, input.vendorId);
    if (!vendor || vendor.organizationId !== organizationId)
      issues.push({ path: 'vendorId', message: 'Choose a vendor of your organization' });
    else if (vendor.status === 'blocked') issues.push({ path: 'vendorId', message: 'This vendor is blocked' });
    else if (vendor.status === 'pending_verification')
      issues.push({ path: 'vendorId', message: 'This vendor has not been verified yet' });
  }
  if (issues.length > 0) {
    // The vendor's refusal is the one the requester must act on first.
    const blocked = issues.find((i) => i.message === 'This vendor is blocked');
    throw invalid(blocked ? [blocked, ...issues.filter((i) => i !== blocked)] : issues);
  }
}

function auditView(
  r: Partial<typeof spendingRequests.$inferInsert>,
  extra: { lineItems?: unknown; allocations?: unknown } = {},
) {
  return {
    title: r.title,
    description: r.description ?? null,
    justification: r.justification ?? null,
    kind: r.kind,
    amount: r.amount,
    currency: r.currency,
    fxRate: r.fxRate,
    amountOrg: r.amountOrg,
    orgCurrency: r.orgCurrency,
    groupFxRate: r.groupFxRate,
    amountGroup: r.amountGroup,
    groupCurrency: r.groupCurrency,
    organizationId: r.organizationId,
    departmentId: r.departmentId ?? null,
    categoryId: r.categoryId ?? null,
    vendorId: r.vendorId ?? null,
    expenseDate: r.expenseDate ?? null,
    neededBy: r.neededBy ?? null,
    recurrence: r.recurrence,
    recurrenceEnd: r.recurrenceEnd ?? null,
    status: r.status,
    ...extra,
  };
}

const lineItemsOfInput = (items: CreateRequestInput['lineItems']) =>
  items.map((li) => ({
    description: li.description,
    categoryId: li.categoryId ?? null,
    amount: li.amount,
    taxAmount: li.taxAmount ?? '0.00',
  }));

/** Creates a draft in the caller's organization; with an Idempotency-Key a retry creates nothing new. */
export async function createRequest(
  ctx: Ctx,
  input: CreateRequestInput,
  key: string | undefined,
): Promise<Outcome<RequestDetail>> {
  const auth = requireAuth(ctx);
  return withIdempotency<RequestDetail>(ctx, { key, route: CREATE_ROUTE, body: input }, async (tx) => {
    const org = await callerOrganization(tx, auth);
    const departmentId = input.departmentId ?? auth.departmentId ?? null;
    await checkReferences(tx, org.id, { ...input, departmentId });
    const c = await conversions(tx, {
      amount: input.amount,
      currency: input.currency,
      orgCurrency: org.currency,
      date: input.expenseDate ?? ctx.now,
    });
    const values: typeof spendingRequests.$inferInsert = {
      organizationId: org.id,
      departmentId,
      requesterId: auth.userId,
      categoryId: input.categoryId,
      vendorId: input.vendorId ?? null,
      title: input.title,
      description: input.description ?? null,
      justification: input.justification ?? null,
      kind: input.kind,
      amount: toAmountString(input.amount),
      currency: input.currency,
      fxRate: c.org.rate,
      amountOrg: c.org.amount,
      orgCurrency: org.currency,
      groupFxRate: c.grp.rate,
      amountGroup: c.grp.amount,
      groupCurrency: c.group,
      expenseDate: input.expenseDate ?? null,
      neededBy: input.neededBy ?? null,
      status: 'draft',
      recurrence: input.recurrence,
      recurrenceEnd: input.recurrence === 'none' ? null : (input.recurrenceEnd ?? null),
      createdAt: ctx.now,
      updatedAt: ctx.now,
    };
    const id = await writes.insertRequest(tx, values);
    const items = lineItemsOfInput(input.lineItems);
    await writes.replaceLineItems(tx, id, items);
    await writes.replaceAllocations(tx, id, input.allocations);
    await writeAudit(
      tx,
      {
        actorId: auth.userId,
        action: 'request.created',
        entityType: 'spending_request',
        entityId: id,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        after: auditView(values, { lineItems: items, allocations: input.allocations }),
        metadata: key ? { idempotencyKey: key } : undefined,
      },
      ctx.now,
    );
    await recordRequestEvent(tx, { requestId: id, type: 'created', actorId: auth.userId }, ctx.now);
    return { status: 201, body: await getRequestDetail(ctx, id, tx) };
  });
}

function notEditable(status: RequestStatus): AppError {
  return new AppError('CONFLICT', {
    message: `This request is ${REQUEST_STATUS_LABELS[status].toLowerCase()} and can no longer be edited; only drafts and requests waiting for information can be changed`,
  });
}

export async function updateRequest(
  ctx: Ctx,
  id: string,
  input: UpdateRequestInput,
  expectedVersion?: number,
): Promise<RequestDetail> {
  const auth = requireAuth(ctx);
  await ctx.db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const before = await findVisibleRequest(ctx, id, tx, { forUpdate: true });
    requireRequester(auth, before, 'edit');
    // Before the status check: an edit from a copy loaded before a submission is a stale copy.
    assertVersion(before.version, expectedVersion);
    if (!EDITABLE.includes(before.status)) throw notEditable(before.status);
    const storedItems = (await repo.lineItemsOf(tx, id)).map(({ item }) => item);
    const storedAllocations = await repo.allocationsOf(tx, id);

    const merged = {
      title: input.title ?? before.title,
      description: input.description !== undefined ? input.description : before.description,
      justification: input.justification !== undefined ? input.justification : before.justification,
      kind: input.kind ?? before.kind,
      amount: input.amount !== undefined ? toAmountString(input.amount) : before.amount,
      currency: input.currency ?? before.currency,
      categoryId: input.categoryId ?? before.categoryId,
      departmentId:
        input.departmentId !== undefined ? (input.departmentId ?? auth.departmentId ?? null) : before.departmentId,
      vendorId: input.vendorId !== undefined ? input.vendorId : before.vendorId,
      expenseDate: input.expenseDate !== undefined ? input.expenseDate : before.expenseDate,
      neededBy: input.neededBy !== undefined ? input.neededBy : before.neededBy,
      recurrence: input.recurrence ?? before.recurrence,
      recurrenceEnd: input.recurrenceEnd !== undefined ? input.recurrenceEnd : before.recurrenceEnd,
    };
    // Decimals follow the currency (no cents on a yen request). The contract can check only what
    // one edit sends; a new currency with the kept amount, or a new amount in the kept currency,
    // is checked here. Edits that leave the money alone are not held up by it.
    if (input.amount !== undefined || input.currency !== undefined || input.lineItems !== undefined) {
      const keptItems = input.lineItems ?? storedItems;
      const problems = [
        { path: 'amount', amount: merged.amount },
        ...keptItems.flatMap((li, i) => [
          { path: `lineItems.${i}.amount`, amount: li.amount },
          { path: `lineItems.${i}.taxAmount`, amount: li.taxAmount },
        ]),
      ].flatMap(({ path, amount }) => {
        const message = amountDigitsProblem(amount, merged.currency);
        return message ? [{ path, message }] : [];
      });
      if (problems.length > 0) throw invalid(problems);
    }
    const items = input.lineItems !== undefined ? lineItemsOfInput(input.lineItems) : null;
    // The amount and the (new or kept) line items must still agree.
    const effectiveItems = items ?? storedItems.map((i) => ({ amount: i.amount, taxAmount: i.taxAmount }));
    if (effectiveItems.length > 0) {
      const total = addMoney(...effectiveItems.flatMap((li) => [li.amount, li.taxAmount]));
      if (compareMoney(total, merged.amount) !== 0) {
        throw invalid([
          { path: 'amount', message: `The amount must equal the line items' total (${toAmountString(total)})` },
        ]);
      }
    }
    if (merged.recurrence !== 'none' && !merged.recurrenceEnd)
      throw invalid([{ path: 'recurrenceEnd', message: 'A recurring request needs an end date' }]);
    if (merged.recurrence === 'none') merged.recurrenceEnd = null;

    await checkReferences(tx, before.organizationId, {
      departmentId: input.departmentId !== undefined ? merged.departmentId : undefined,
      categoryId: input.categoryId ?? undefined,
      vendorId: input.vendorId ?? undefined,
      lineItems: input.lineItems,
      allocations: input.allocations,
    });
    const c = await conversions(tx, {
      amount: merged.amount,
      currency: merged.currency,
      orgCurrency: before.orgCurrency,
      date: merged.expenseDate ?? ctx.now,
    });
    const changes: Partial<typeof spendingRequests.$inferInsert> = {
      ...merged,
      fxRate: c.org.rate,
      amountOrg: c.org.amount,
      groupFxRate: c.grp.rate,
      amountGroup: c.grp.amount,
      groupCurrency: c.group,
      // An approved part (an earlier step rejected some line items) is of the old figures: new line
      // items or a new amount are decided again in full by the steps still to come.
      ...(before.approvedAmount !== null && (items !== null || compareMoney(merged.amount, before.amount) !== 0)
        ? { approvedAmount: null }
        : {}),
      updatedAt: ctx.now,
    };
    if (!(await writes.updateRequestRow(tx, id, changes, expectedVersion))) throw versionConflict();
    if (items) await writes.replaceLineItems(tx, id, items);
    if (input.allocations !== undefined) await writes.replaceAllocations(tx, id, input.allocations);
    const beforeItems = storedItems.map((i) => ({
      description: i.description,
      categoryId: i.categoryId,
      amount: i.amount,
      taxAmount: i.taxAmount,
    }));
    const beforeAllocations = storedAllocations.map((a) => ({ departmentId: a.departmentId, percent: a.percent }));
    await writeAudit(
      tx,
      {
        actorId: auth.userId,
        action: 'request.updated',
        entityType: 'spending_request',
        entityId: id,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        before: auditView(before, { lineItems: beforeItems, allocations: beforeAllocations }),
        after: auditView(
          { ...before, ...changes },
          { lineItems: items ?? beforeItems, allocations: input.allocations ?? beforeAllocations },
        ),
        metadata: { fields: Object.keys(input).filter((k) => (input as Record<string, unknown>)[k] !== undefined) },
      },
      ctx.now,
    );
    await recordRequestEvent(tx, { requestId: id, type: 'updated', actorId: auth.userId }, ctx.now);
  });
  return getRequestDetail(ctx, id);
}

export async function addComment(ctx: Ctx, id: string, body: string): Promise<RequestComment> {
  const auth = requireAuth(ctx);
  return ctx.db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const r = await findVisibleRequest(ctx, id, tx);
    const comment = await writes.insertComment(tx, {
      requestId: id,
      authorId: auth.userId,
      kind: 'comment',
      body,
      createdAt: ctx.now,
    });
    await recordRequestEvent(
      tx,
      { requestId: id, type: 'commented', actorId: auth.userId, note: body.slice(0, 500) },
      ctx.now,
    );
    const author = await repo.userName(tx, auth.userId);
    const recipients = [r.requesterId, ...(await repo.openAssigneesOf(tx, id))].filter((u) => u !== auth.userId);
    const reference = requestReference(r.seq);
    await notify(
      tx,
      recipients,
      {
        type: 'request.commented',
        title: `${author} commented on ${reference}`,
        body: body.length > 200 ? `${body.slice(0, 197)}…` : body,
        link: `/requests?id=${id}`,
        entityType: 'spending_request',
        entityId: id,
      },
      ctx.now,
    );
    return toComment(comment, author);
  });
}
