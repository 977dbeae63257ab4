import {
  PAYROLL_RUN_STATUS_LABELS,
  maskIban,
  computePayrollLine,
  payrollTotals,
  periodBounds,
  scheduledPayDate,
  type CreatePayrollRunInput,
  type PayPayrollRunInput,
  type PayrollAdjustmentInput,
  type PayrollRun,
  type PayrollRunDetail,
  type PayrollRunExportQuery,
  type PayrollRunList,
  type PayrollRunListQuery,
  type PayrollRunStatus,
} from '@outlay/contracts';
import { compareMoney, roundToCurrency } from '@outlay/contracts/money';
import { serverFormat } from '@outlay/contracts/format';
import { payrollRuns, type Db } from '@outlay/db';
import { countryOf, onBusinessDay } from '@outlay/db/business-days';
import { AppError } from '../../lib/app-error.ts';
import { writeAudit } from '../../lib/audit.ts';
import { requireAuth, type Ctx } from '../../lib/context.ts';
import { decrypt } from '../../lib/crypto.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { page } from '../../lib/lists.ts';
import { organizationInScope, scopeCondition, scopeOf } from '../../lib/scope.ts';
import { requireRecentAuth } from '../../lib/step-up.ts';
import { notifyPayrollToApprove } from '../notifications/index.ts';
import * as repo from './payroll.repository.ts';
import type { RunRow } from './payroll.repository.ts';
import { enqueueWebhookEvent } from '../../lib/webhook-outbox.ts';
import type { ExportAbout, ExportColumn } from '../../lib/export.ts';

const NOT_FOUND = 'Payroll run not found';
export const OWN_SUBMISSION = 'You submitted this payroll run; someone else must approve it';
const columns = { organizationId: payrollRuns.organizationId };

/**
 * Those who prepare payroll (payroll.manage) and those who approve it (payroll.approve) both
 * read runs, each within the scope of the permission they hold (the broader when both).
 */
function readScope(ctx: Ctx) {
  const auth = requireAuth(ctx);
  const manage = scopeOf(auth, 'payroll.manage');
  const approve = scopeOf(auth, 'payroll.approve');
  if (!manage && !approve)
    throw new AppError('FORBIDDEN', { message: 'Only those who prepare or approve payroll see payroll runs' });
  const permission = manage === 'group' || !approve ? 'payroll.manage' : 'payroll.approve';
  return scopeCondition(auth, permission, columns);
}
const manageScope = (ctx: Ctx) => scopeCondition(requireAuth(ctx), 'payroll.manage', columns);
const approveScope = (ctx: Ctx) => scopeCondition(requireAuth(ctx), 'payroll.approve', columns);

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toRun(row: RunRow): PayrollRun {
  return {
    id: row.id,
    organizationId: row.organizationId,
    organizationName: row.organizationName,
    period: row.period,
    status: row.status,
    currency: row.currency,
    employeeCount: row.employeeCount,
    grossTotal: roundToCurrency(row.grossTotal, row.currency),
    deductionsTotal: roundToCurrency(row.deductionsTotal, row.currency),
    netTotal: roundToCurrency(row.netTotal, row.currency),
    employerCostTotal: roundToCurrency(row.employerCostTotal, row.currency),
    payDate: row.payDate,
    payDateAdjustedFrom: row.payDateAdjustedFrom,
    payDateAdjustedReason: row.payDateAdjustedReason,
    submittedById: row.submittedById,
    submittedByName: row.submittedByName,
    submittedAt: iso(row.submittedAt),
    approvedByName: row.approvedByName,
    approvedAt: iso(row.approvedAt),
    paidAt: iso(row.paidAt),
    paymentReference: row.paymentReference,
    version: row.version,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function listRuns(ctx: Ctx, query: PayrollRunListQuery): Promise<PayrollRunList> {
  const { rows, total } = await repo.listRuns(ctx.db, { scope: readScope(ctx), query });
  return page(rows.map(toRun), total, query);
}

export async function exportRuns(ctx: Ctx, query: PayrollRunExportQuery): Promise<PayrollRun[]> {
  const { rows } = await repo.listRuns(ctx.db, { scope: readScope(ctx), query });
  return rows.map(toRun);
}

/**
 * What an export of runs covers: the months of the runs in it, whose runs (the one organization
 * they are all of, else all the caller may see) and their currency when they share one.
 */
export function exportAbout(rows: readonly PayrollRun[]): ExportAbout {
  const months = rows.map((r) => r.period).sort();
  const organizations = [...new Set(rows.map((r) => r.organizationName))];
  const currencies = [...new Set(rows.map((r) => r.currency))];
  return {
    title: 'Payroll runs',
    period: { from: months[0] ?? null, to: months.at(-1) ?? null },
    scope: organizations.length === 1 ? organizations[0] : 'All organizations',
    currency: currencies.length === 1 ? currencies[0] : undefined,
  };
}

export const RUN_EXPORT_COLUMNS: ExportColumn<PayrollRun>[] = [
  { header: 'Month', value: (r: PayrollRun) => r.period, type: 'month' },
  { header: 'Organization', value: (r: PayrollRun) => r.organizationName },
  { header: 'Status', value: (r: PayrollRun) => PAYROLL_RUN_STATUS_LABELS[r.status] },
  { header: 'Currency', value: (r: PayrollRun) => r.currency },
  { header: 'Employees', value: (r: PayrollRun) => r.employeeCount, type: 'number' },
  { header: 'Gross', value: (r: PayrollRun) => r.grossTotal, type: 'money', currency: (r: PayrollRun) => r.currency },
  {
    header: 'Deductions',
    value: (r: PayrollRun) => r.deductionsTotal,
    type: 'money',
    currency: (r: PayrollRun) => r.currency,
  },
  { header: 'Net pay', value: (r: PayrollRun) => r.netTotal, type: 'money', currency: (r: PayrollRun) => r.currency },
  {
    header: 'Employer cost',
    value: (r: PayrollRun) => r.employerCostTotal,
    type: 'money',
    currency: (r: PayrollRun) => r.currency,
  },
  { header: 'Submitted by', value: (r: PayrollRun) => r.submittedByName },
  { header: 'Approved by', value: (r: PayrollRun) => r.approvedByName },
  { header: 'Paid at', value: (r: PayrollRun) => r.paidAt, type: 'datetime' },
  { header: 'Payment reference', value: (r: PayrollRun) => r.paymentReference },
];

/** A run the caller may read, or 404. */
export async function runInScope(ctx: Ctx, id: string, db: Db = ctx.db): Promise<RunRow> {
  const row = await repo.findRun(db, { id, scope: readScope(ctx) });
  if (!row) throw new AppError('NOT_FOUND', { message: NOT_FOUND });
  return row;
}

export async function getRun(ctx: Ctx, id: string, db: Db = ctx.db): Promise<PayrollRunDetail> {
  const auth = requireAuth(ctx);
  const row = await runInScope(ctx, id, db);
  const [lines, adjustments, changed] = await Promise.all([
    repo.runLines(db, id),
    repo.runAdjustments(db, id),
    payeeDetails(ctx, db, row),
  ]);
  const manages = organizationInScope(auth, 'payroll.manage', row.organizationId);
  const approves = organizationInScope(auth, 'payroll.approve', row.organizationId);
  const own = row.submittedById === auth.userId;
  return {
    ...toRun(row),
    lines: lines.map(({ departmentId: _d, ...l }) => {
      const payee = changed.get(l.employeeId);
      return {
        ...l,
        ibanMasked: maskIban(payee?.ibanLast4),
        bic: payee?.bic ?? null,
        bankDetailsChanged: payee?.changed ?? false,
      };
    }),
    adjustmentItems: adjustments.map((a) => ({ ...a, createdAt: a.createdAt.toISOString() })),
    actions: {
      adjust: manages && row.status === 'draft',
      submit: manages && row.status === 'draft' && row.employeeCount > 0,
      approve: approves && row.status === 'submitted' && !own,
      pay: manages && row.status === 'approved',
      download: manages && (row.status === 'approved' || row.status === 'paid'),
    },
    approveBlockedReason: approves && row.status === 'submitted' && own ? OWN_SUBMISSION : null,
  };
}

/**
 * Each payee's bank details on the run (kept at approval, or the employee's as they are now
 * before that), and whether they differ from the payee's in the organization's previous approved
 * or paid run: what an approver must see before releasing money to a new account.
 */
async function payeeDetails(ctx: Ctx, db: Db, run: RunRow) {
  const kept = run.status === 'approved' || run.status === 'paid';
  const [payees, previousId] = await Promise.all([
    repo.runPayees(db, { runId: run.id, kept }),
    repo.previousKeptRun(db, { organizationId: run.organizationId, period: run.period }),
  ]);
  const previous = new Map(
    (previousId ? await repo.runPayees(db, { runId: previousId, kept: true }) : []).map((p) => [p.employeeId, p]),
  );
  const iban = (sealed: string | null) => (sealed ? decrypt(ctx.bankKey, sealed) : null);
  return new Map(
    payees.map((p) => {
      const before = previous.get(p.employeeId);
      const changed =
        before !== undefined &&
        (before.bic !== p.bic ||
          before.name !== p.name ||
          (before.ibanEnc !== p.ibanEnc && iban(before.ibanEnc) !== iban(p.ibanEnc)));
      return [p.employeeId, { ibanLast4: p.ibanLast4, bic: p.bic, changed }];
    }),
  );
}

/** Recomputes a draft run's lines from its organization's employees and its adjustments. */
async function recompute(
  tx: Db,
  run: { id: string; organizationId: string; period: string; currency: string },
  now: Date,
) {
  const { start, end } = periodBounds(run.period);
  const [people, adjustments] = await Promise.all([
    repo.employedIn(tx, { organizationId: run.organizationId, start, end }),
    repo.runAdjustments(tx, run.id),
  ]);
  const lines = people.map((e) => ({
    employeeId: e.id,
    departmentId: e.departmentId,
    ...computePayrollLine(
      e,
      run.period,
      run.currency,
      adjustments.filter((a) => a.employeeId === e.id),
    ),
  }));
  const negative = lines.find((l) => compareMoney(l.gross, '0') < 0);
  if (negative) {
    throw new AppError('VALIDATION_ERROR', {
      message: "Deductions cannot take an employee's gross pay below zero",
      details: [{ path: 'amount', message: "Deductions cannot take an employee's gross pay below zero" }],
    });
  }
  const totals = payrollTotals(lines, run.currency);
  await repo.replaceLines(tx, { runId: run.id, lines, totals, now });
  return totals;
}

export async function createRun(ctx: Ctx, tx: Db, input: CreatePayrollRunInput): Promise<PayrollRunDetail> {
  const auth = requireAuth(ctx);
  if (!organizationInScope(auth, 'payroll.manage', input.organizationId))
    throw new AppError('NOT_FOUND', { message: 'Organization not found' });
  const org = await repo.organizationById(tx, input.organizationId);
  if (!org || org.kind !== 'subsidiary') throw new AppError('NOT_FOUND', { message: 'Organization not found' });
  if (!org.active) throw new AppError('VALIDATION_ERROR', { message: 'This organization is inactive' });
  const duplicate = () =>
    new AppError('CONFLICT', { message: `${org.name} already has a payroll run for ${input.period}` });
  // Salaries go out on the 25th, or on the next day the banks of the organization's country open.
  const pay = onBusinessDay(scheduledPayDate(input.period), countryOf(org));
  let id: string;
  try {
    // A savepoint: the unique index refuses a second run for the month, and the caller's
    // transaction (with its idempotency key) must survive to answer 409.
    id = await tx.transaction(async (sp) => {
      const newId = await repo.insertRun(sp as unknown as Db, {
        organizationId: org.id,
        period: input.period,
        currency: org.currency,
        createdById: auth.userId,
        payDate: pay.date,
        payDateAdjustedFrom: pay.adjustedFrom,
        payDateAdjustedReason: pay.adjustedReason,
        createdAt: ctx.now,
        updatedAt: ctx.now,
      });
      return newId;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicate();
    throw error;
  }
  const totals = await recompute(
    tx,
    { id, organizationId: org.id, period: input.period, currency: org.currency },
    ctx.now,
  );
  await writeAudit(
    tx,
    {
      actorId: auth.userId,
      action: 'payroll_run.created',
      entityType: 'payroll_run',
      entityId: id,
      ip: ctx.ip,
      userAgent: ctx.userAgent,
      after: {
        organizationId: org.id,
        period: input.period,
        status: 'draft',
        currency: org.currency,
        payDate: pay.date,
        ...(pay.adjustedFrom
          ? { payDateAdjustedFrom: pay.adjustedFrom, payDateAdjustedReason: pay.adjustedReason }
          : {}),
        ...totals,
      },
    },
    ctx.now,
  );
  return getRun(ctx, id, tx);
}

function wrongStatus(row: RunRow, action: string) {
  return new AppError('CONFLICT', {
    message: `This payroll run is ${PAYROLL_RUN_STATUS_LABELS[row.status].toLowerCase()}; it cannot be ${action}`,
  });
}

async function lockRun(ctx: Ctx, tx: Db, id: string, scope: ReturnType<typeof manageScope>) {
  const row = await repo.findRun(tx, { id, scope, forUpdate: true });
  if (!row) throw new AppError('NOT_FOUND', { message: NOT_FOUND });
  return row;
}

export async function addAdjustment(
  ctx: Ctx,
  tx: Db,
  runId: string,
  input: PayrollAdjustmentInput,
): Promise<PayrollRunDetail> {
  const auth = requireAuth(ctx);
  const run = await lockRun(ctx, tx, runId, manageScope(ctx));
  if (run.status !== 'draft') throw wrongStatus(run, 'adjusted');
  const lines = await repo.runLines(tx, runId);
  if (!lines.some((l) => l.employeeId === input.employeeId)) {
    throw new AppError('VALIDATION_ERROR', {
      message: 'This employee is not on this payroll run',
      details: [{ path: 'employeeId', message: 'This employee is not on this payroll run' }],
    });
  }
  const amount = roundToCurrency(input.amount, run.currency);
  const adjustmentId = await repo.insertAdjustment(tx, {
    runId,
    employeeId: input.employeeId,
    kind: input.kind,
    amount,
    reason: input.reason,
    createdById: auth.userId,
    createdAt: ctx.now,
  });
  const totals = await recompute(tx, run, ctx.now);
  await writeAudit(
    tx,
    {
      actorId: auth.userId,
      action: 'payroll_run.adjustment_added',
      entityType: 'payroll_run',
      entityId: runId,
      ip: ctx.ip,
      userAgent: ctx.userAgent,
      after: {
        adjustmentId,
        employeeId: input.employeeId,
        kind: input.kind,
        amount,
        currency: run.currency,
        ...totals,
      },
      metadata: { reason: input.reason },
    },
    ctx.now,
  );
  return getRun(ctx, runId, tx);
}

export async function removeAdjustment(ctx: Ctx, runId: string, adjustmentId: string): Promise<PayrollRunDetail> {
  const auth = requireAuth(ctx);
  return ctx.db.transaction(async (tx) => {
    const run = await lockRun(ctx, tx, runId, manageScope(ctx));
    if (run.status !== 'draft') throw wrongStatus(run, 'adjusted');
    const removed = await repo.deleteAdjustment(tx, { runId, id: adjustmentId });
    if (!removed) throw new AppError('NOT_FOUND', { message: 'Adjustment not found' });
    const totals = await recompute(tx, run, ctx.now);
    await writeAudit(
      tx,
      {
        actorId: auth.userId,
        action: 'payroll_run.adjustment_removed',
        entityType: 'payroll_run',
        entityId: runId,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        before: { adjustmentId, ...removed },
        after: totals,
      },
      ctx.now,
    );
    return getRun(ctx, runId, tx);
  });
}

/** Recomputes a draft from the employees as they are now (after employee changes). */
export async function recalculateRun(ctx: Ctx, runId: string): Promise<PayrollRunDetail> {
  const auth = requireAuth(ctx);
  return ctx.db.transaction(async (tx) => {
    const run = await lockRun(ctx, tx, runId, manageScope(ctx));
    if (run.status !== 'draft') throw wrongStatus(run, 'recalculated');
    const totals = await recompute(tx, run, ctx.now);
    await writeAudit(
      tx,
      {
        actorId: auth.userId,
        action: 'payroll_run.recalculated',
        entityType: 'payroll_run',
        entityId: runId,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        after: totals,
      },
      ctx.now,
    );
    return getRun(ctx, runId, tx);
  });
}

async function transition(
  ctx: Ctx,
  runId: string,
  step: {
    scope: ReturnType<typeof manageScope>;
    from: PayrollRunStatus;
    to: PayrollRunStatus;
    verb: string;
    check?: (run: RunRow) => void;
    values: Partial<typeof payrollRuns.$inferInsert>;
  },
  after?: (tx: Db, run: RunRow) => Promise<void>,
  db?: Db,
): Promise<PayrollRunDetail> {
  const auth = requireAuth(ctx);
  const work = async (tx: Db) => {
    const run = await lockRun(ctx, tx, runId, step.scope);
    if (run.status !== step.from) {
      throw run.status === step.to
        ? new AppError('CONFLICT', {
            message: `This payroll run is already ${PAYROLL_RUN_STATUS_LABELS[step.to].toLowerCase()}`,
          })
        : wrongStatus(run, step.verb);
    }
    step.check?.(run);
    if (
      !(await repo.moveRun(tx, {
        id: runId,
        from: step.from,
        values: { ...step.values, status: step.to, updatedAt: ctx.now },
      }))
    ) {
      throw new AppError('CONFLICT', { message: 'This payroll run was changed by someone else; reload and try again' });
    }
    await writeAudit(
      tx,
      {
        actorId: auth.userId,
        action: `payroll_run.${step.to}`,
        entityType: 'payroll_run',
        entityId: runId,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        before: { status: run.status },
        after: { status: step.to, netTotal: run.netTotal, currency: run.currency, employeeCount: run.employeeCount },
        metadata: step.values.paymentReference ? { paymentReference: step.values.paymentReference } : undefined,
      },
      ctx.now,
    );
    if (step.to === 'approved') {
      await enqueueWebhookEvent(
        tx,
        'payroll.approved',
        {
          payrollRunId: runId,
          organizationId: run.organizationId,
          netTotal: run.netTotal,
          currency: run.currency,
          employeeCount: run.employeeCount,
        },
        ctx.now,
      );
    }
    await after?.(tx, run);
    return getRun(ctx, runId, tx);
  };
  return db ? work(db) : ctx.db.transaction((tx) => work(tx as unknown as Db));
}

export function submitRun(ctx: Ctx, runId: string): Promise<PayrollRunDetail> {
  const auth = requireAuth(ctx);
  return transition(
    ctx,
    runId,
    {
      scope: manageScope(ctx),
      from: 'draft',
      to: 'submitted',
      verb: 'submitted',
      check: (run) => {
        if (run.employeeCount === 0)
          throw new AppError('CONFLICT', { message: 'This payroll run has no employees to pay' });
      },
      values: { submittedById: auth.userId, submittedAt: ctx.now },
    },
    (tx, run) =>
      notifyPayrollToApprove(
        tx,
        {
          id: run.id,
          organizationId: run.organizationId,
          organizationName: run.organizationName,
          period: run.period,
          total: run.netTotal,
          currency: run.currency,
          employeeCount: run.employeeCount,
        },
        auth.userId,
        ctx.now,
      ),
  );
}

export function approveRun(ctx: Ctx, runId: string): Promise<PayrollRunDetail> {
  const auth = requireAuth(ctx);
  requireRecentAuth(ctx);
  return transition(
    ctx,
    runId,
    {
      scope: approveScope(ctx),
      from: 'submitted',
      to: 'approved',
      verb: 'approved',
      check: (run) => {
        if (run.submittedById === auth.userId) throw new AppError('FORBIDDEN', { message: OWN_SUBMISSION });
      },
      values: { approvedById: auth.userId, approvedAt: ctx.now },
    },
    async (tx) => {
      // What is approved is who gets paid and where: the bank details are kept on the lines now,
      // and the bank file reads only those. Everyone paid must have a bank account to approve.
      const payees = await repo.runPayees(tx, { runId, kept: false });
      const missing = payees
        .filter((p) => compareMoney(p.net, '0') > 0 && !p.ibanEnc)
        .map((p) => p.name ?? p.employeeId);
      if (missing.length)
        throw new AppError('CONFLICT', {
          message: `Add a bank account for ${serverFormat.list(missing)} before this payroll run is approved`,
        });
      await repo.keepPayees(tx, runId);
    },
  );
}

export function payRun(ctx: Ctx, tx: Db, runId: string, input: PayPayrollRunInput): Promise<PayrollRunDetail> {
  const auth = requireAuth(ctx);
  return transition(
    ctx,
    runId,
    {
      scope: manageScope(ctx),
      from: 'approved',
      to: 'paid',
      verb: 'marked paid',
      values: { paidById: auth.userId, paidAt: ctx.now, paymentReference: input.paymentReference ?? null },
    },
    undefined,
    tx,
  );
}
