import { sql } from 'drizzle-orm';
import {
  char,
  check,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { PAYROLL_ADJUSTMENT_KIND_VALUES, PAYROLL_RUN_STATUS_VALUES } from '@outlay/contracts';
import { currencyCheck, enumCheck, nonNegativeCheck, orderCheck, positiveCheck } from './checks.ts';
import { money, ts } from './columns.ts';
import { departments, organizations } from './organizations.ts';
import { users } from './users.ts';

/** A percentage 0–100 with two decimals (tax and pension rates). */
const percent = (name: string) => numeric(name, { precision: 5, scale: 2 });
const percentCheck = (name: string, column: Parameters<typeof nonNegativeCheck>[1]) =>
  check(name, sql`${column} >= 0 and ${column} <= 100`);

/**
 * Someone on an organization's payroll, linked to a user account or not. Salary and allowances
 * are monthly, in the organization's currency. The IBAN is sealed at rest like vendors' bank
 * details; only its last four characters leave the server.
 */
export const employees = pgTable(
  'employees',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    departmentId: uuid('department_id').references(() => departments.id),
    userId: uuid('user_id').references(() => users.id),
    employeeNumber: text('employee_number').notNull(),
    fullName: text('full_name').notNull(),
    email: text('email'),
    jobTitle: text('job_title'),
    startDate: date('start_date').notNull(),
    endDate: date('end_date'),
    currency: char('currency', { length: 3 }).notNull(),
    baseSalary: money('base_salary').notNull(),
    /** Named monthly allowances: [{ name, amount }] with amounts as decimal strings. */
    allowances: jsonb('allowances').$type<{ name: string; amount: string }[]>().notNull().default([]),
    incomeTaxRate: percent('income_tax_rate').notNull().default('0'),
    employeePensionRate: percent('employee_pension_rate').notNull().default('0'),
    employerPensionRate: percent('employer_pension_rate').notNull().default('0'),
    ibanEnc: text('iban_enc'),
    ibanLast4: text('iban_last4'),
    bic: text('bic'),
    /**
     * A change of the bank account on file waits here until a second person (not the one who
     * asked for it) confirms it: the IBAN and BIC it would set, who asked and when.
     */
    pendingIbanEnc: text('pending_iban_enc'),
    pendingIbanLast4: text('pending_iban_last4'),
    pendingBic: text('pending_bic'),
    pendingBankById: uuid('pending_bank_by_id').references(() => users.id),
    pendingBankAt: ts('pending_bank_at'),
    /** Bumped by every write; a write naming an older version (If-Match) is refused. */
    version: integer('version').notNull().default(1),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('employees_number_idx').on(t.organizationId, t.employeeNumber),
    uniqueIndex('employees_user_idx').on(t.userId),
    index('employees_org_idx').on(t.organizationId),
    currencyCheck('employees_currency_check', t.currency),
    nonNegativeCheck('employees_base_salary_check', t.baseSalary),
    percentCheck('employees_income_tax_rate_check', t.incomeTaxRate),
    percentCheck('employees_employee_pension_rate_check', t.employeePensionRate),
    percentCheck('employees_employer_pension_rate_check', t.employerPensionRate),
    orderCheck('employees_dates_check', t.startDate, t.endDate),
  ],
);

/**
 * One organization's payroll for one month: draft → submitted → approved → paid. The totals are
 * the sums of the rounded lines, kept on the run so lists and reports need not add lines up.
 */
export const payrollRuns = pgTable(
  'payroll_runs',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    /** YYYY-MM */
    period: char('period', { length: 7 }).notNull(),
    status: text('status', { enum: PAYROLL_RUN_STATUS_VALUES }).notNull().default('draft'),
    currency: char('currency', { length: 3 }).notNull(),
    employeeCount: integer('employee_count').notNull().default(0),
    grossTotal: money('gross_total').notNull().default('0'),
    deductionsTotal: money('deductions_total').notNull().default('0'),
    netTotal: money('net_total').notNull().default('0'),
    employerCostTotal: money('employer_cost_total').notNull().default('0'),
    /** The day salaries are paid (the bank file's requested execution date). */
    payDate: date('pay_date'),
    /** The day it would have been (the 25th) when that was no business day of the organization's country, and why. */
    payDateAdjustedFrom: date('pay_date_adjusted_from'),
    payDateAdjustedReason: text('pay_date_adjusted_reason'),
    createdById: uuid('created_by_id').references(() => users.id),
    submittedById: uuid('submitted_by_id').references(() => users.id),
    submittedAt: ts('submitted_at'),
    approvedById: uuid('approved_by_id').references(() => users.id),
    approvedAt: ts('approved_at'),
    paidById: uuid('paid_by_id').references(() => users.id),
    paidAt: ts('paid_at'),
    paymentReference: text('payment_reference'),
    version: integer('version').notNull().default(1),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('payroll_runs_org_period_idx').on(t.organizationId, t.period),
    index('payroll_runs_period_idx').on(t.period),
    enumCheck('payroll_runs_status_check', t.status, PAYROLL_RUN_STATUS_VALUES),
    currencyCheck('payroll_runs_currency_check', t.currency),
    check('payroll_runs_period_check', sql`${t.period} ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'`),
    // Nobody approves what they submitted themselves (four eyes), whatever path writes the row.
    check(
      'payroll_runs_pay_date_adjusted_check',
      sql`(${t.payDateAdjustedFrom} is null) = (${t.payDateAdjustedReason} is null) and (${t.payDateAdjustedFrom} is null or ${t.payDateAdjustedFrom} < ${t.payDate})`,
    ),
    check(
      'payroll_runs_four_eyes_check',
      sql`${t.approvedById} is null or ${t.approvedById} is distinct from ${t.submittedById}`,
    ),
  ],
);

/** One employee's line in a run: every amount rounded to the currency's minor unit. */
export const payrollLines = pgTable(
  'payroll_lines',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    runId: uuid('run_id')
      .notNull()
      .references(() => payrollRuns.id, { onDelete: 'cascade' }),
    employeeId: uuid('employee_id')
      .notNull()
      .references(() => employees.id),
    /** The department at the time of the run: payroll cost posts to it. */
    departmentId: uuid('department_id').references(() => departments.id),
    /** Calendar days employed in the month, and the month's days (pro-rating). */
    daysWorked: integer('days_worked').notNull(),
    daysInPeriod: integer('days_in_period').notNull(),
    base: money('base').notNull(),
    allowances: money('allowances').notNull().default('0'),
    /** Bonuses minus deductions of the run's adjustments for this employee (may be negative). */
    adjustments: numeric('adjustments', { precision: 14, scale: 2 }).notNull().default('0'),
    gross: money('gross').notNull(),
    incomeTax: money('income_tax').notNull(),
    employeePension: money('employee_pension').notNull(),
    deductions: money('deductions').notNull(),
    net: money('net').notNull(),
    employerPension: money('employer_pension').notNull(),
    employerCost: money('employer_cost').notNull(),
    /**
     * The payee as the bank file names them, kept when the run is approved: a later change to the
     * employee (IBAN, BIC, name, number) never reaches an approved or paid run's bank file. The
     * IBAN stays sealed like the employee's. Null while the run is a draft or submitted.
     */
    payeeNumber: text('payee_number'),
    payeeName: text('payee_name'),
    payeeIbanEnc: text('payee_iban_enc'),
    payeeIbanLast4: text('payee_iban_last4'),
    payeeBic: text('payee_bic'),
  },
  (t) => [
    uniqueIndex('payroll_lines_run_employee_idx').on(t.runId, t.employeeId),
    index('payroll_lines_employee_idx').on(t.employeeId),
    check('payroll_lines_days_check', sql`${t.daysWorked} >= 0 and ${t.daysWorked} <= ${t.daysInPeriod}`),
  ],
);

/** A bonus or deduction on one employee's line, with its reason (audited). */
export const payrollAdjustments = pgTable(
  'payroll_adjustments',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    runId: uuid('run_id')
      .notNull()
      .references(() => payrollRuns.id, { onDelete: 'cascade' }),
    employeeId: uuid('employee_id')
      .notNull()
      .references(() => employees.id),
    kind: text('kind', { enum: PAYROLL_ADJUSTMENT_KIND_VALUES }).notNull(),
    amount: money('amount').notNull(),
    reason: text('reason').notNull(),
    createdById: uuid('created_by_id').references(() => users.id),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('payroll_adjustments_run_idx').on(t.runId, t.employeeId),
    enumCheck('payroll_adjustments_kind_check', t.kind, PAYROLL_ADJUSTMENT_KIND_VALUES),
    positiveCheck('payroll_adjustments_amount_check', t.amount),
    check('payroll_adjustments_reason_check', sql`length(trim(${t.reason})) > 0`),
  ],
);
