import { and, asc, count, eq, gte, ilike, inArray, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core';
import type { EmployeeListQuery, PayrollLineAmounts, PayrollRunListQuery } from '@outlay/contracts';
import {
  departments,
  employees,
  organizations,
  payrollAdjustments,
  payrollLines,
  payrollRuns,
  users,
  type Db,
} from '@outlay/db';
import { likePattern, listPage, orderBy, windowOf, type Sortable } from '../../lib/lists.ts';
import { nextVersion, versionIs } from '../../lib/versions.ts';

type Unpaged<Q> = Omit<Q, 'page' | 'pageSize'> & { page?: number; pageSize?: number };
type EmployeeQuery = Unpaged<EmployeeListQuery>;
type RunQuery = Unpaged<PayrollRunListQuery>;

const fullName = (u: { firstName: AnyPgColumn; lastName: AnyPgColumn }) =>
  sql<string>`${u.firstName} || ' ' || ${u.lastName}`;

// ---------------------------------------------------------------------------------------------
// Employees

const linkedUser = alias(users, 'linked_user');

/** Every column an employee answer needs; never the sealed IBAN. */
const employeeColumns = {
  id: employees.id,
  organizationId: employees.organizationId,
  organizationName: organizations.name,
  departmentId: employees.departmentId,
  departmentName: departments.name,
  userId: employees.userId,
  userName: sql<string | null>`CASE WHEN ${linkedUser.id} IS NULL THEN NULL ELSE ${fullName(linkedUser)} END`,
  employeeNumber: employees.employeeNumber,
  fullName: employees.fullName,
  email: employees.email,
  jobTitle: employees.jobTitle,
  startDate: employees.startDate,
  endDate: employees.endDate,
  currency: employees.currency,
  baseSalary: employees.baseSalary,
  allowances: employees.allowances,
  incomeTaxRate: employees.incomeTaxRate,
  employeePensionRate: employees.employeePensionRate,
  employerPensionRate: employees.employerPensionRate,
  ibanLast4: employees.ibanLast4,
  bic: employees.bic,
  pendingIbanLast4: employees.pendingIbanLast4,
  pendingBic: employees.pendingBic,
  pendingBankById: employees.pendingBankById,
  pendingBankAt: employees.pendingBankAt,
  version: employees.version,
  createdAt: employees.createdAt,
  updatedAt: employees.updatedAt,
};

const EMPLOYEE_SORTABLE: Sortable = {
  fullName: sql`lower(${employees.fullName})`,
  employeeNumber: employees.employeeNumber,
  organization: organizations.name,
  department: departments.name,
  startDate: employees.startDate,
  baseSalary: employees.baseSalary,
};

function employeeWhere(
  scope: SQL | undefined,
  q: Pick<EmployeeListQuery, 'q' | 'organizationId' | 'departmentId' | 'employment'>,
  today: string,
) {
  const parts: (SQL | undefined)[] = [scope];
  if (q.q) {
    const p = likePattern(q.q);
    parts.push(
      or(
        ilike(employees.fullName, p),
        ilike(employees.employeeNumber, p),
        ilike(employees.email, p),
        ilike(employees.jobTitle, p),
      ),
    );
  }
  if (q.organizationId) parts.push(eq(employees.organizationId, q.organizationId));
  if (q.departmentId) parts.push(eq(employees.departmentId, q.departmentId));
  if (q.employment === 'current') parts.push(or(isNull(employees.endDate), gte(employees.endDate, today)));
  if (q.employment === 'former') parts.push(sql`${employees.endDate} < ${today}`);
  return and(...parts);
}

function employeesFrom(db: Db) {
  return db
    .select(employeeColumns)
    .from(employees)
    .innerJoin(organizations, eq(organizations.id, employees.organizationId))
    .leftJoin(departments, eq(departments.id, employees.departmentId))
    .leftJoin(linkedUser, eq(linkedUser.id, employees.userId))
    .$dynamic();
}

function employeesCount(db: Db) {
  return db
    .select({ n: count() })
    .from(employees)
    .innerJoin(organizations, eq(organizations.id, employees.organizationId))
    .leftJoin(departments, eq(departments.id, employees.departmentId))
    .$dynamic();
}

export type EmployeeRow = Awaited<ReturnType<typeof findEmployee>> & {};

/** A page of employees, or every match when the query names no page (exports). */
export async function listEmployees(db: Db, params: { scope: SQL | undefined; query: EmployeeQuery; today: string }) {
  const condition = employeeWhere(params.scope, params.query, params.today);
  return listPage(db, {
    rows: employeesFrom(db).where(condition),
    order: [orderBy(EMPLOYEE_SORTABLE, params.query, 'fullName'), asc(employees.id)],
    window: windowOf(params.query),
    count: employeesCount(db).where(condition),
  });
}

export async function findEmployee(db: Db, params: { id: string; scope: SQL | undefined; forUpdate?: boolean }) {
  const q = employeesFrom(db).where(and(eq(employees.id, params.id), params.scope));
  const [row] = params.forUpdate ? await q.for('update', { of: employees }) : await q;
  return row ?? null;
}

export async function insertEmployee(db: Db, values: typeof employees.$inferInsert): Promise<string> {
  const [row] = await db.insert(employees).values(values).returning({ id: employees.id });
  return row!.id;
}

export async function updateEmployeeRow(
  db: Db,
  params: { id: string; expectedVersion: number | undefined; values: Partial<typeof employees.$inferInsert> },
) {
  const rows = await db
    .update(employees)
    .set({ ...params.values, version: nextVersion(employees.version) })
    .where(and(eq(employees.id, params.id), versionIs(employees.version, params.expectedVersion)))
    .returning({ id: employees.id });
  return rows.length > 0;
}

/** The employee's sealed IBAN on file and the one a pending change would set. */
export async function employeeSealedBank(db: Db, id: string) {
  const [row] = await db
    .select({ ibanEnc: employees.ibanEnc, pendingIbanEnc: employees.pendingIbanEnc })
    .from(employees)
    .where(eq(employees.id, id));
  return row ?? null;
}

export async function deleteEmployeeRow(db: Db, id: string) {
  await db.delete(employees).where(eq(employees.id, id));
}

export async function employeeHasLines(db: Db, id: string): Promise<boolean> {
  const rows = await db
    .select({ id: payrollLines.id })
    .from(payrollLines)
    .where(eq(payrollLines.employeeId, id))
    .limit(1);
  return rows.length > 0;
}

/**
 * The payees of a run as its bank file names them: for an approved or paid run (`kept`) the
 * details kept on its lines at approval, otherwise the employees' details as they are now. The
 * IBAN stays sealed.
 */
export async function runPayees(db: Db, params: { runId: string; kept: boolean }) {
  const columns = params.kept
    ? {
        number: payrollLines.payeeNumber,
        name: payrollLines.payeeName,
        ibanEnc: payrollLines.payeeIbanEnc,
        ibanLast4: payrollLines.payeeIbanLast4,
        bic: payrollLines.payeeBic,
      }
    : {
        number: employees.employeeNumber,
        name: employees.fullName,
        ibanEnc: employees.ibanEnc,
        ibanLast4: employees.ibanLast4,
        bic: employees.bic,
      };
  return db
    .select({ employeeId: payrollLines.employeeId, net: payrollLines.net, ...columns })
    .from(payrollLines)
    .innerJoin(employees, eq(employees.id, payrollLines.employeeId))
    .where(eq(payrollLines.runId, params.runId))
    .orderBy(asc(employees.fullName), asc(employees.id));
}

/** Keeps each payee's bank details on the run's lines as they are now (at approval). */
export async function keepPayees(db: Db, runId: string) {
  await db.execute(sql`
    UPDATE ${payrollLines} SET payee_number = e.employee_number, payee_name = e.full_name, payee_iban_enc = e.iban_enc,
      payee_iban_last4 = e.iban_last4, payee_bic = e.bic
    FROM ${employees} AS e
    WHERE e.id = ${payrollLines.employeeId} AND ${payrollLines.runId} = ${runId}`);
}

/** The organization's latest approved or paid run before the period, if any. */
export async function previousKeptRun(
  db: Db,
  params: { organizationId: string; period: string },
): Promise<string | null> {
  const [row] = await db
    .select({ id: payrollRuns.id })
    .from(payrollRuns)
    .where(
      and(
        eq(payrollRuns.organizationId, params.organizationId),
        inArray(payrollRuns.status, ['approved', 'paid']),
        sql`${payrollRuns.period} < ${params.period}`,
      ),
    )
    .orderBy(sql`${payrollRuns.period} desc`)
    .limit(1);
  return row?.id ?? null;
}

export async function organizationsFor(db: Db, onlyId: string | null | undefined) {
  const orgs = await db
    .select({
      id: organizations.id,
      name: organizations.name,
      currency: organizations.currency,
      active: organizations.active,
    })
    .from(organizations)
    .where(
      and(
        eq(organizations.kind, 'subsidiary'),
        onlyId === undefined ? undefined : onlyId === null ? sql`false` : eq(organizations.id, onlyId),
      ),
    )
    .orderBy(asc(organizations.name));
  const ids = orgs.map((o) => o.id);
  if (ids.length === 0) return [];
  const [depts, people] = await Promise.all([
    db
      .select({ id: departments.id, name: departments.name, organizationId: departments.organizationId })
      .from(departments)
      .where(inArray(departments.organizationId, ids))
      .orderBy(asc(departments.name)),
    db
      .select({ id: users.id, name: fullName(users), organizationId: users.organizationId })
      .from(users)
      .where(and(inArray(users.organizationId, ids), eq(users.status, 'active')))
      .orderBy(asc(users.firstName), asc(users.lastName)),
  ]);
  return orgs.map((o) => ({
    ...o,
    departments: depts.filter((d) => d.organizationId === o.id).map(({ id, name }) => ({ id, name })),
    users: people.filter((u) => u.organizationId === o.id).map(({ id, name }) => ({ id, name })),
  }));
}

export async function organizationById(db: Db, id: string) {
  const [row] = await db
    .select({
      id: organizations.id,
      name: organizations.name,
      currency: organizations.currency,
      active: organizations.active,
      kind: organizations.kind,
      country: organizations.country,
      address: organizations.address,
    })
    .from(organizations)
    .where(eq(organizations.id, id));
  return row ?? null;
}

export async function departmentOrg(db: Db, id: string): Promise<string | null> {
  const [row] = await db
    .select({ organizationId: departments.organizationId })
    .from(departments)
    .where(eq(departments.id, id));
  return row?.organizationId ?? null;
}

export async function userOrg(db: Db, id: string): Promise<string | null> {
  const [row] = await db.select({ organizationId: users.organizationId }).from(users).where(eq(users.id, id));
  return row?.organizationId ?? null;
}

/** Employees of an organization employed on at least one day of the period, with their terms. */
export async function employedIn(db: Db, params: { organizationId: string; start: string; end: string }) {
  return db
    .select({
      id: employees.id,
      departmentId: employees.departmentId,
      startDate: employees.startDate,
      endDate: employees.endDate,
      baseSalary: employees.baseSalary,
      allowances: employees.allowances,
      incomeTaxRate: employees.incomeTaxRate,
      employeePensionRate: employees.employeePensionRate,
      employerPensionRate: employees.employerPensionRate,
    })
    .from(employees)
    .where(
      and(
        eq(employees.organizationId, params.organizationId),
        lte(employees.startDate, params.end),
        or(isNull(employees.endDate), gte(employees.endDate, params.start)),
      ),
    )
    .orderBy(asc(employees.employeeNumber));
}

// ---------------------------------------------------------------------------------------------
// Runs

const submitter = alias(users, 'submitter');
const approver = alias(users, 'approver');

const runColumns = {
  id: payrollRuns.id,
  organizationId: payrollRuns.organizationId,
  organizationName: organizations.name,
  period: payrollRuns.period,
  status: payrollRuns.status,
  currency: payrollRuns.currency,
  employeeCount: payrollRuns.employeeCount,
  grossTotal: payrollRuns.grossTotal,
  deductionsTotal: payrollRuns.deductionsTotal,
  netTotal: payrollRuns.netTotal,
  employerCostTotal: payrollRuns.employerCostTotal,
  payDate: payrollRuns.payDate,
  payDateAdjustedFrom: payrollRuns.payDateAdjustedFrom,
  payDateAdjustedReason: payrollRuns.payDateAdjustedReason,
  submittedById: payrollRuns.submittedById,
  submittedByName: sql<string | null>`CASE WHEN ${submitter.id} IS NULL THEN NULL ELSE ${fullName(submitter)} END`,
  submittedAt: payrollRuns.submittedAt,
  approvedById: payrollRuns.approvedById,
  approvedByName: sql<string | null>`CASE WHEN ${approver.id} IS NULL THEN NULL ELSE ${fullName(approver)} END`,
  approvedAt: payrollRuns.approvedAt,
  paidAt: payrollRuns.paidAt,
  paymentReference: payrollRuns.paymentReference,
  version: payrollRuns.version,
  createdAt: payrollRuns.createdAt,
};

function runsFrom(db: Db) {
  return db
    .select(runColumns)
    .from(payrollRuns)
    .innerJoin(organizations, eq(organizations.id, payrollRuns.organizationId))
    .leftJoin(submitter, eq(submitter.id, payrollRuns.submittedById))
    .leftJoin(approver, eq(approver.id, payrollRuns.approvedById))
    .$dynamic();
}

function runsCount(db: Db) {
  return db
    .select({ n: count() })
    .from(payrollRuns)
    .innerJoin(organizations, eq(organizations.id, payrollRuns.organizationId))
    .$dynamic();
}

const RUN_SORTABLE: Sortable = {
  period: payrollRuns.period,
  organization: organizations.name,
  status: payrollRuns.status,
  netTotal: payrollRuns.netTotal,
  grossTotal: payrollRuns.grossTotal,
};

export type RunRow = NonNullable<Awaited<ReturnType<typeof findRun>>>;

/** A page of runs, or every match when the query names no page (exports). */
export async function listRuns(db: Db, params: { scope: SQL | undefined; query: RunQuery }) {
  const q = params.query;
  const parts: (SQL | undefined)[] = [params.scope];
  if (q.organizationId) parts.push(eq(payrollRuns.organizationId, q.organizationId));
  if (q.status) parts.push(eq(payrollRuns.status, q.status));
  if (q.q) parts.push(or(ilike(organizations.name, likePattern(q.q)), ilike(payrollRuns.period, likePattern(q.q))));
  const condition = and(...parts);
  // Newest month first unless the caller sorts otherwise.
  const order = q.sort ? orderBy(RUN_SORTABLE, q, 'period') : sql`${payrollRuns.period} desc`;
  return listPage(db, {
    rows: runsFrom(db).where(condition),
    order: [order, asc(organizations.name), asc(payrollRuns.id)],
    window: windowOf(q),
    count: runsCount(db).where(condition),
  });
}

export async function findRun(db: Db, params: { id: string; scope: SQL | undefined; forUpdate?: boolean }) {
  const q = runsFrom(db).where(and(eq(payrollRuns.id, params.id), params.scope));
  const [row] = params.forUpdate ? await q.for('update', { of: payrollRuns }) : await q;
  return row ?? null;
}

export async function insertRun(db: Db, values: typeof payrollRuns.$inferInsert): Promise<string> {
  const [row] = await db.insert(payrollRuns).values(values).returning({ id: payrollRuns.id });
  return row!.id;
}

/** Moves a run still in `from` (conditional, so of concurrent moves one wins). */
export async function moveRun(
  db: Db,
  params: { id: string; from: RunRow['status']; values: Partial<typeof payrollRuns.$inferInsert> },
) {
  const rows = await db
    .update(payrollRuns)
    .set({ ...params.values, version: nextVersion(payrollRuns.version) })
    .where(and(eq(payrollRuns.id, params.id), eq(payrollRuns.status, params.from)))
    .returning({ id: payrollRuns.id });
  return rows.length > 0;
}

export async function runLines(db: Db, runId: string) {
  return db
    .select({
      employeeId: payrollLines.employeeId,
      employeeName: employees.fullName,
      employeeNumber: employees.employeeNumber,
      departmentId: payrollLines.departmentId,
      departmentName: departments.name,
      daysWorked: payrollLines.daysWorked,
      daysInPeriod: payrollLines.daysInPeriod,
      base: payrollLines.base,
      allowances: payrollLines.allowances,
      adjustments: payrollLines.adjustments,
      gross: payrollLines.gross,
      incomeTax: payrollLines.incomeTax,
      employeePension: payrollLines.employeePension,
      deductions: payrollLines.deductions,
      net: payrollLines.net,
      employerPension: payrollLines.employerPension,
      employerCost: payrollLines.employerCost,
    })
    .from(payrollLines)
    .innerJoin(employees, eq(employees.id, payrollLines.employeeId))
    .leftJoin(departments, eq(departments.id, payrollLines.departmentId))
    .where(eq(payrollLines.runId, runId))
    .orderBy(asc(employees.fullName), asc(employees.id));
}

const adjuster = alias(users, 'adjuster');

export async function runAdjustments(db: Db, runId: string) {
  return db
    .select({
      id: payrollAdjustments.id,
      employeeId: payrollAdjustments.employeeId,
      employeeName: employees.fullName,
      kind: payrollAdjustments.kind,
      amount: payrollAdjustments.amount,
      reason: payrollAdjustments.reason,
      createdByName: sql<string | null>`CASE WHEN ${adjuster.id} IS NULL THEN NULL ELSE ${fullName(adjuster)} END`,
      createdAt: payrollAdjustments.createdAt,
    })
    .from(payrollAdjustments)
    .innerJoin(employees, eq(employees.id, payrollAdjustments.employeeId))
    .leftJoin(adjuster, eq(adjuster.id, payrollAdjustments.createdById))
    .where(eq(payrollAdjustments.runId, runId))
    .orderBy(asc(payrollAdjustments.createdAt), asc(payrollAdjustments.id));
}

export async function insertAdjustment(db: Db, values: typeof payrollAdjustments.$inferInsert): Promise<string> {
  const [row] = await db.insert(payrollAdjustments).values(values).returning({ id: payrollAdjustments.id });
  return row!.id;
}

export async function deleteAdjustment(db: Db, params: { runId: string; id: string }) {
  const rows = await db
    .delete(payrollAdjustments)
    .where(and(eq(payrollAdjustments.id, params.id), eq(payrollAdjustments.runId, params.runId)))
    .returning({
      id: payrollAdjustments.id,
      employeeId: payrollAdjustments.employeeId,
      kind: payrollAdjustments.kind,
      amount: payrollAdjustments.amount,
      reason: payrollAdjustments.reason,
    });
  return rows[0] ?? null;
}

/** Replaces a draft run's lines and totals. */
export async function replaceLines(
  db: Db,
  params: {
    runId: string;
    lines: (PayrollLineAmounts & { employeeId: string; departmentId: string | null })[];
    totals: {
      employeeCount: number;
      grossTotal: string;
      deductionsTotal: string;
      netTotal: string;
      employerCostTotal: string;
    };
    now: Date;
  },
) {
  await db.delete(payrollLines).where(eq(payrollLines.runId, params.runId));
  if (params.lines.length)
    await db.insert(payrollLines).values(params.lines.map((l) => ({ ...l, runId: params.runId })));
  await db
    .update(payrollRuns)
    .set({ ...params.totals, updatedAt: params.now, version: nextVersion(payrollRuns.version) })
    .where(eq(payrollRuns.id, params.runId));
}

/** Year-to-date sums of one employee's lines in approved and paid runs of the year, up to the period. */
export async function yearToDate(db: Db, params: { organizationId: string; employeeId: string; period: string }) {
  const [row] = await db
    .select({
      gross: sql<string>`coalesce(sum(${payrollLines.gross}), 0)`,
      incomeTax: sql<string>`coalesce(sum(${payrollLines.incomeTax}), 0)`,
      employeePension: sql<string>`coalesce(sum(${payrollLines.employeePension}), 0)`,
      deductions: sql<string>`coalesce(sum(${payrollLines.deductions}), 0)`,
      net: sql<string>`coalesce(sum(${payrollLines.net}), 0)`,
    })
    .from(payrollLines)
    .innerJoin(payrollRuns, eq(payrollRuns.id, payrollLines.runId))
    .where(
      and(
        eq(payrollRuns.organizationId, params.organizationId),
        eq(payrollLines.employeeId, params.employeeId),
        inArray(payrollRuns.status, ['approved', 'paid']),
        gte(payrollRuns.period, `${params.period.slice(0, 4)}-01`),
        lte(payrollRuns.period, params.period),
      ),
    );
  return row!;
}
