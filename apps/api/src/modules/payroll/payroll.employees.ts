import {
  maskIban,
  type CreateEmployeeInput,
  type EmployeeExportQuery,
  type Employee,
  type EmployeeList,
  type EmployeeListQuery,
  type PayrollOrganization,
  type UpdateEmployeeInput,
} from '@outlay/contracts';
import { roundToCurrency } from '@outlay/contracts/money';
import { employees, type Db } from '@outlay/db';
import { AppError } from '../../lib/app-error.ts';
import { writeAudit } from '../../lib/audit.ts';
import { requireAuth, type Ctx } from '../../lib/context.ts';
import { decrypt, encrypt } from '../../lib/crypto.ts';
import { uniqueViolationOf } from '../../lib/db-errors.ts';
import { page } from '../../lib/lists.ts';
import { organizationInScope, scopeCondition, scopeOf } from '../../lib/scope.ts';
import { notify } from '../../lib/notify.ts';
import { requireRecentAuth } from '../../lib/step-up.ts';
import { assertVersion, versionConflict } from '../../lib/versions.ts';
import * as repo from './payroll.repository.ts';
import type { EmployeeRow } from './payroll.repository.ts';
import type { ExportColumn } from '../../lib/export.ts';

const PERMISSION = 'payroll.manage' as const;
const NOT_FOUND = 'Employee not found';

function scope(ctx: Ctx) {
  return scopeCondition(requireAuth(ctx), PERMISSION, { organizationId: employees.organizationId });
}

const isoDay = (d: Date) => d.toISOString().slice(0, 10);

export function toEmployee(row: EmployeeRow): Employee {
  return {
    id: row.id,
    organizationId: row.organizationId,
    organizationName: row.organizationName,
    departmentId: row.departmentId,
    departmentName: row.departmentName,
    userId: row.userId,
    userName: row.userName,
    employeeNumber: row.employeeNumber,
    fullName: row.fullName,
    email: row.email,
    jobTitle: row.jobTitle,
    startDate: row.startDate,
    endDate: row.endDate,
    currency: row.currency,
    baseSalary: roundToCurrency(row.baseSalary, row.currency),
    allowances: row.allowances,
    incomeTaxRate: row.incomeTaxRate,
    employeePensionRate: row.employeePensionRate,
    employerPensionRate: row.employerPensionRate,
    ibanMasked: maskIban(row.ibanLast4),
    bic: row.bic,
    pendingBankChange: row.pendingBankAt
      ? {
          ibanMasked: maskIban(row.pendingIbanLast4),
          bic: row.pendingBic,
          requestedById: row.pendingBankById,
          requestedAt: row.pendingBankAt.toISOString(),
        }
      : null,
    version: row.version,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** What the audit trail keeps of an employee: no bank details beyond the last four. */
function auditView(row: Partial<typeof employees.$inferInsert>) {
  const { ibanEnc: _sealed, pendingIbanEnc: _pending, createdAt: _c, updatedAt: _u, version: _v, ...rest } = row;
  return rest;
}

export async function listEmployees(ctx: Ctx, query: EmployeeListQuery): Promise<EmployeeList> {
  const { rows, total } = await repo.listEmployees(ctx.db, { scope: scope(ctx), query, today: isoDay(ctx.now) });
  return page(rows.map(toEmployee), total, query);
}

export async function exportEmployees(ctx: Ctx, query: EmployeeExportQuery): Promise<Employee[]> {
  const { rows } = await repo.listEmployees(ctx.db, { scope: scope(ctx), query, today: isoDay(ctx.now) });
  return rows.map(toEmployee);
}

export const EMPLOYEE_EXPORT_COLUMNS: ExportColumn<Employee>[] = [
  { header: 'Employee number', value: (e: Employee) => e.employeeNumber },
  { header: 'Name', value: (e: Employee) => e.fullName },
  { header: 'Organization', value: (e: Employee) => e.organizationName },
  { header: 'Department', value: (e: Employee) => e.departmentName },
  { header: 'Job title', value: (e: Employee) => e.jobTitle },
  { header: 'E-mail', value: (e: Employee) => e.email },
  { header: 'Start date', value: (e: Employee) => e.startDate, type: 'date' },
  { header: 'End date', value: (e: Employee) => e.endDate, type: 'date' },
  { header: 'Currency', value: (e: Employee) => e.currency },
  { header: 'Monthly base salary', value: (e: Employee) => e.baseSalary, type: 'money' },
  { header: 'Allowances', value: (e: Employee) => e.allowances.map((a) => `${a.name} ${a.amount}`).join('; ') },
  { header: 'Income tax %', value: (e: Employee) => e.incomeTaxRate, type: 'percent' },
  { header: 'Employee pension %', value: (e: Employee) => e.employeePensionRate, type: 'percent' },
  { header: 'Employer pension %', value: (e: Employee) => e.employerPensionRate, type: 'percent' },
  { header: 'Bank account', value: (e: Employee) => e.ibanMasked },
  { header: 'BIC', value: (e: Employee) => e.bic },
];

export async function getEmployee(ctx: Ctx, id: string): Promise<Employee> {
  const row = await repo.findEmployee(ctx.db, { id, scope: scope(ctx) });
  if (!row) throw new AppError('NOT_FOUND', { message: NOT_FOUND });
  return toEmployee(row);
}

/** Organizations the caller keeps payroll for: every subsidiary at group scope, their own otherwise. */
export async function payrollOrganizations(ctx: Ctx): Promise<{ items: PayrollOrganization[] }> {
  const auth = requireAuth(ctx);
  const s = scopeOf(auth, PERMISSION) ?? scopeOf(auth, 'payroll.approve');
  const rows = await repo.organizationsFor(ctx.db, s === 'group' ? undefined : auth.organizationId);
  return { items: rows.filter((o) => o.active).map(({ active: _a, ...o }) => o) };
}

function sealIban(ctx: Ctx, iban: string | null | undefined) {
  if (iban === undefined) return {};
  if (iban === null) return { ibanEnc: null, ibanLast4: null };
  return { ibanEnc: encrypt(ctx.bankKey, iban), ibanLast4: iban.slice(-4) };
}

const fieldError = (path: string, message: string) =>
  new AppError('VALIDATION_ERROR', { message, details: [{ path, message }] });

/** The department and linked user must belong to the employee's organization. */
async function checkLinks(
  ctx: Ctx,
  organizationId: string,
  input: { departmentId?: string | null; userId?: string | null },
) {
  if (input.departmentId && (await repo.departmentOrg(ctx.db, input.departmentId)) !== organizationId) {
    throw fieldError('departmentId', "Choose a department of the employee's organization");
  }
  if (input.userId && (await repo.userOrg(ctx.db, input.userId)) !== organizationId) {
    throw fieldError('userId', "Choose a user of the employee's organization");
  }
}

function conflictOf(error: unknown): AppError | null {
  const unique = uniqueViolationOf(error);
  if (!unique) return null;
  if (unique.constraint === 'employees_user_idx')
    return fieldError('userId', 'This user is already linked to another employee');
  return new AppError('CONFLICT', {
    message: 'An employee with this number already exists in the organization',
    details: [{ path: 'employeeNumber', message: 'An employee with this number already exists in the organization' }],
  });
}

export async function createEmployee(ctx: Ctx, input: CreateEmployeeInput): Promise<Employee> {
  const auth = requireAuth(ctx);
  if (!organizationInScope(auth, PERMISSION, input.organizationId))
    throw new AppError('NOT_FOUND', { message: 'Organization not found' });
  const org = await repo.organizationById(ctx.db, input.organizationId);
  if (!org || org.kind !== 'subsidiary') throw new AppError('NOT_FOUND', { message: 'Organization not found' });
  if (!org.active) throw fieldError('organizationId', 'This organization is inactive');
  await checkLinks(ctx, org.id, input);
  const values = {
    organizationId: org.id,
    departmentId: input.departmentId ?? null,
    userId: input.userId ?? null,
    employeeNumber: input.employeeNumber,
    fullName: input.fullName,
    email: input.email ?? null,
    jobTitle: input.jobTitle ?? null,
    startDate: input.startDate,
    endDate: input.endDate ?? null,
    currency: org.currency,
    baseSalary: roundToCurrency(input.baseSalary, org.currency),
    allowances: input.allowances.map((a) => ({ name: a.name, amount: roundToCurrency(a.amount, org.currency) })),
    incomeTaxRate: input.incomeTaxRate,
    employeePensionRate: input.employeePensionRate,
    employerPensionRate: input.employerPensionRate,
    ...sealIban(ctx, input.iban ?? null),
    bic: input.bic ?? null,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  };
  let id: string;
  try {
    id = await ctx.db.transaction(async (tx) => {
      const newId = await repo.insertEmployee(tx, values);
      await writeAudit(
        tx,
        {
          actorId: auth.userId,
          action: 'employee.created',
          entityType: 'employee',
          entityId: newId,
          ip: ctx.ip,
          userAgent: ctx.userAgent,
          after: auditView(values),
        },
        ctx.now,
      );
      return newId;
    });
  } catch (error) {
    throw conflictOf(error) ?? error;
  }
  return getEmployee(ctx, id);
}

export async function updateEmployee(
  ctx: Ctx,
  id: string,
  input: UpdateEmployeeInput,
  expectedVersion?: number,
): Promise<Employee> {
  const auth = requireAuth(ctx);
  const s = scope(ctx);
  const current = await repo.findEmployee(ctx.db, { id, scope: s });
  if (!current) throw new AppError('NOT_FOUND', { message: NOT_FOUND });
  await checkLinks(ctx, current.organizationId, input);
  const start = input.startDate ?? current.startDate;
  const end = input.endDate === undefined ? current.endDate : input.endDate;
  if (end && end < start) throw fieldError('endDate', 'The end date cannot be before the start date');
  const changes: Partial<typeof employees.$inferInsert> = {};
  const c = current.currency;
  if (input.departmentId !== undefined) changes.departmentId = input.departmentId;
  if (input.userId !== undefined) changes.userId = input.userId;
  if (input.employeeNumber !== undefined) changes.employeeNumber = input.employeeNumber;
  if (input.fullName !== undefined) changes.fullName = input.fullName;
  if (input.email !== undefined) changes.email = input.email;
  if (input.jobTitle !== undefined) changes.jobTitle = input.jobTitle;
  if (input.startDate !== undefined) changes.startDate = input.startDate;
  if (input.endDate !== undefined) changes.endDate = input.endDate;
  if (input.baseSalary !== undefined) changes.baseSalary = roundToCurrency(input.baseSalary, c);
  if (input.allowances !== undefined)
    changes.allowances = input.allowances.map((a) => ({ name: a.name, amount: roundToCurrency(a.amount, c) }));
  if (input.incomeTaxRate !== undefined) changes.incomeTaxRate = input.incomeTaxRate;
  if (input.employeePensionRate !== undefined) changes.employeePensionRate = input.employeePensionRate;
  if (input.employerPensionRate !== undefined) changes.employerPensionRate = input.employerPensionRate;
  try {
    await ctx.db.transaction(async (tx) => {
      const before = await repo.findEmployee(tx, { id, scope: s, forUpdate: true });
      if (!before) throw new AppError('NOT_FOUND', { message: NOT_FOUND });
      assertVersion(before.version, expectedVersion);
      const bank = await bankChange(ctx, tx, before, input);
      Object.assign(changes, bank.values);
      if (!(await repo.updateEmployeeRow(tx, { id, expectedVersion, values: { ...changes, updatedAt: ctx.now } })))
        throw versionConflict();
      const { ibanLast4, ...was } = before;
      if (bank.pending) {
        await writeAudit(
          tx,
          {
            actorId: auth.userId,
            action: 'employee.bank_change_requested',
            entityType: 'employee',
            entityId: id,
            ip: ctx.ip,
            userAgent: ctx.userAgent,
            before: { ibanLast4, bic: before.bic },
            after: { ibanLast4: changes.pendingIbanLast4, bic: changes.pendingBic },
          },
          ctx.now,
        );
        if (before.userId)
          await notifyBankChange(tx, before.userId, id, changes.pendingIbanLast4 ?? null, 'requested', ctx.now);
      }
      await writeAudit(
        tx,
        {
          actorId: auth.userId,
          action: 'employee.updated',
          entityType: 'employee',
          entityId: id,
          ip: ctx.ip,
          userAgent: ctx.userAgent,
          before: { ...auditView(was as Partial<typeof employees.$inferInsert>), ibanLast4 },
          after: auditView(changes),
          metadata: bank.applied ? { ibanChanged: true } : undefined,
        },
        ctx.now,
      );
    });
  } catch (error) {
    throw conflictOf(error) ?? error;
  }
  return getEmployee(ctx, id);
}

/**
 * What a bank detail edit does. Adding the first account or removing the one on file applies at
 * once (neither sends a salary somewhere new). Changing the account on file only records the
 * change as pending: it takes effect once someone other than its author confirms it.
 */
async function bankChange(ctx: Ctx, tx: Db, before: EmployeeRow, input: UpdateEmployeeInput) {
  const none = { values: {} as Partial<typeof employees.$inferInsert>, pending: false, applied: false };
  if (input.iban === undefined && input.bic === undefined) return none;
  const sealed = await repo.employeeSealedBank(tx, before.id);
  const onFile = sealed?.ibanEnc ? decrypt(ctx.bankKey, sealed.ibanEnc) : null;
  const iban = input.iban === undefined ? onFile : input.iban;
  const bic = input.bic === undefined ? before.bic : input.bic;
  const clearPending = {
    pendingIbanEnc: null,
    pendingIbanLast4: null,
    pendingBic: null,
    pendingBankById: null,
    pendingBankAt: null,
  };
  if (!onFile || iban === null)
    return { values: { ...sealIban(ctx, iban), bic, ...clearPending }, pending: false, applied: true };
  if (iban === onFile && bic === before.bic) return none;
  const auth = requireAuth(ctx);
  return {
    values: {
      pendingIbanEnc: encrypt(ctx.bankKey, iban),
      pendingIbanLast4: iban.slice(-4),
      pendingBic: bic,
      pendingBankById: auth.userId,
      pendingBankAt: ctx.now,
    },
    pending: true,
    applied: false,
  };
}

async function notifyBankChange(
  tx: Db,
  userId: string,
  employeeId: string,
  last4: string | null,
  stage: 'requested' | 'confirmed',
  now: Date,
) {
  const account = last4 ? `the account ending ${last4}` : 'a new account';
  await notify(
    tx,
    [userId],
    stage === 'requested'
      ? {
          type: 'bank_details_changed',
          title: 'A change of your salary account was requested',
          body: `Your salary is to be paid to ${account} once a second person confirms it. If you did not ask for this, tell your payroll team at once.`,
          link: '/profile',
          entityType: 'employee',
          entityId: employeeId,
        }
      : {
          type: 'bank_details_changed',
          title: 'Your salary account was changed',
          body: `From the next payroll run your salary is paid to ${account}. If you did not ask for this, tell your payroll team at once.`,
          link: '/profile',
          entityType: 'employee',
          entityId: employeeId,
        },
    now,
  );
}

export const OWN_BANK_CHANGE = 'You asked for this bank account change; another payroll manager must confirm it';

/** Confirms an employee's pending bank account change (not by the one who asked for it). */
export async function confirmBankChange(ctx: Ctx, id: string): Promise<Employee> {
  const auth = requireAuth(ctx);
  requireRecentAuth(ctx);
  const s = scope(ctx);
  await ctx.db.transaction(async (tx) => {
    const before = await repo.findEmployee(tx, { id, scope: s, forUpdate: true });
    if (!before) throw new AppError('NOT_FOUND', { message: NOT_FOUND });
    const sealed = await repo.employeeSealedBank(tx, id);
    if (!before.pendingBankAt || !sealed?.pendingIbanEnc)
      throw new AppError('CONFLICT', { message: 'There is no bank account change to confirm' });
    if (before.pendingBankById === auth.userId) throw new AppError('FORBIDDEN', { message: OWN_BANK_CHANGE });
    const values = {
      ibanEnc: sealed.pendingIbanEnc,
      ibanLast4: before.pendingIbanLast4,
      bic: before.pendingBic,
      pendingIbanEnc: null,
      pendingIbanLast4: null,
      pendingBic: null,
      pendingBankById: null,
      pendingBankAt: null,
      updatedAt: ctx.now,
    };
    if (!(await repo.updateEmployeeRow(tx, { id, expectedVersion: before.version, values }))) throw versionConflict();
    await writeAudit(
      tx,
      {
        actorId: auth.userId,
        action: 'employee.bank_change_confirmed',
        entityType: 'employee',
        entityId: id,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        before: { ibanLast4: before.ibanLast4, bic: before.bic },
        after: { ibanLast4: before.pendingIbanLast4, bic: before.pendingBic },
        metadata: { requestedById: before.pendingBankById, requestedAt: before.pendingBankAt.toISOString() },
      },
      ctx.now,
    );
    if (before.userId) await notifyBankChange(tx, before.userId, id, before.pendingIbanLast4, 'confirmed', ctx.now);
  });
  return getEmployee(ctx, id);
}

/** Withdraws an employee's pending bank account change (anyone who manages their payroll). */
export async function discardBankChange(ctx: Ctx, id: string): Promise<Employee> {
  const auth = requireAuth(ctx);
  const s = scope(ctx);
  await ctx.db.transaction(async (tx) => {
    const before = await repo.findEmployee(tx, { id, scope: s, forUpdate: true });
    if (!before) throw new AppError('NOT_FOUND', { message: NOT_FOUND });
    if (!before.pendingBankAt)
      throw new AppError('CONFLICT', { message: 'There is no bank account change to discard' });
    const values = {
      pendingIbanEnc: null,
      pendingIbanLast4: null,
      pendingBic: null,
      pendingBankById: null,
      pendingBankAt: null,
      updatedAt: ctx.now,
    };
    if (!(await repo.updateEmployeeRow(tx, { id, expectedVersion: before.version, values }))) throw versionConflict();
    await writeAudit(
      tx,
      {
        actorId: auth.userId,
        action: 'employee.bank_change_discarded',
        entityType: 'employee',
        entityId: id,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        before: { pendingIbanLast4: before.pendingIbanLast4, pendingBic: before.pendingBic },
        metadata: { requestedById: before.pendingBankById },
      },
      ctx.now,
    );
  });
  return getEmployee(ctx, id);
}

export async function deleteEmployee(ctx: Ctx, id: string): Promise<void> {
  const auth = requireAuth(ctx);
  const s = scope(ctx);
  await ctx.db.transaction(async (tx) => {
    const row = await repo.findEmployee(tx, { id, scope: s, forUpdate: true });
    if (!row) throw new AppError('NOT_FOUND', { message: NOT_FOUND });
    if (await repo.employeeHasLines(tx, id)) {
      throw new AppError('CONFLICT', {
        message: 'This employee has payroll history; set an end date instead of deleting them',
      });
    }
    await repo.deleteEmployeeRow(tx, id);
    await writeAudit(
      tx,
      {
        actorId: auth.userId,
        action: 'employee.deleted',
        entityType: 'employee',
        entityId: id,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        before: { fullName: row.fullName, employeeNumber: row.employeeNumber, organizationId: row.organizationId },
      },
      ctx.now,
    );
  });
}
