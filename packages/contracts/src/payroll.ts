// Payroll (docs/product.md §3.7 /payroll): employees, monthly runs per organization and their lines.
import { z } from 'zod';
import { electronicFormatIBAN, isValidBIC, isValidIBAN } from 'ibantools';
import { exportQuery, listQuery, paginated } from './lists.ts';
import { addMoney, compareMoney, parseMoney, roundToCurrency, subtractMoney, type MoneyValue } from './money.ts';
import { isoDate, isoMonth, moneyAmount, text } from './primitives.ts';

export const PAYROLL_RUN_STATUS_VALUES = ['draft', 'submitted', 'approved', 'paid'] as const;
export type PayrollRunStatus = (typeof PAYROLL_RUN_STATUS_VALUES)[number];
export const payrollRunStatus = z.enum(PAYROLL_RUN_STATUS_VALUES);

export const PAYROLL_RUN_STATUS_LABELS: Record<PayrollRunStatus, string> = {
  draft: 'Draft',
  submitted: 'Submitted',
  approved: 'Approved',
  paid: 'Paid',
};

export const PAYROLL_ADJUSTMENT_KIND_VALUES = ['bonus', 'deduction'] as const;
export type PayrollAdjustmentKind = (typeof PAYROLL_ADJUSTMENT_KIND_VALUES)[number];
export const payrollAdjustmentKind = z.enum(PAYROLL_ADJUSTMENT_KIND_VALUES);

export const PAYROLL_ADJUSTMENT_KIND_LABELS: Record<PayrollAdjustmentKind, string> = {
  bonus: 'Bonus',
  deduction: 'Deduction',
};

/** The bank file formats a run can be downloaded in: ISO 20022 credit transfer XML or CSV. */
export const PAYROLL_BANK_FILE_FORMAT_VALUES = ['pain001', 'csv'] as const;

// ---------------------------------------------------------------------------------------------
// Arithmetic: one rule for the server, the demo seed and the tests.

export interface PayrollEmployeeTerms {
  startDate: string;
  endDate: string | null;
  baseSalary: string;
  allowances: readonly { name: string; amount: string }[];
  incomeTaxRate: string;
  employeePensionRate: string;
  employerPensionRate: string;
}

export interface PayrollLineAmounts {
  daysWorked: number;
  daysInPeriod: number;
  base: string;
  allowances: string;
  adjustments: string;
  gross: string;
  incomeTax: string;
  employeePension: string;
  deductions: string;
  net: string;
  employerPension: string;
  employerCost: string;
}

const DAY_MS = 86_400_000;
const dayNumber = (iso: string) =>
  Date.UTC(Number(iso.slice(0, 4)), Number(iso.slice(5, 7)) - 1, Number(iso.slice(8, 10))) / DAY_MS;

/** First and last day of a `YYYY-MM` period, and how many days it has. */
export function periodBounds(period: string): { start: string; end: string; days: number } {
  const [y, m] = [Number(period.slice(0, 4)), Number(period.slice(5, 7))];
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return { start: `${period}-01`, end: `${period}-${String(days).padStart(2, '0')}`, days };
}

/**
 * The day every organization's payroll is scheduled to pay: the 25th of the month. The day it
 * pays is the first business day of the organization's country from then (the server and the
 * seed move it with packages/db/src/business-days.ts).
 */
export function scheduledPayDate(period: string): string {
  return `${period}-25`;
}

/** Calendar days of the period the employee is employed (0 when not at all). */
export function daysEmployed(period: string, startDate: string, endDate: string | null): number {
  const { start, end } = periodBounds(period);
  const from = Math.max(dayNumber(start), dayNumber(startDate));
  const to = Math.min(dayNumber(end), endDate ? dayNumber(endDate) : Infinity);
  return Math.max(0, to - from + 1);
}

const percentOf = (amount: MoneyValue, rate: string) => parseMoney(amount).mul(parseMoney(rate)).div(100);

/**
 * One employee's line for a month. Base and allowances are monthly and pro-rated by the calendar
 * days employed; adjustments (bonuses minus deductions) are not. Each amount is rounded half-up
 * to the currency's minor unit on its own, and the derived ones are sums of rounded amounts, so
 * a payslip always adds up: gross = base + allowances + adjustments, deductions = income tax +
 * employee pension (rates on gross), net = gross − deductions, employer cost = gross + employer
 * pension.
 */
export function computePayrollLine(
  employee: PayrollEmployeeTerms,
  period: string,
  currency: string,
  adjustments: readonly { kind: PayrollAdjustmentKind; amount: string }[] = [],
): PayrollLineAmounts {
  const { days } = periodBounds(period);
  const worked = daysEmployed(period, employee.startDate, employee.endDate);
  const share = (amount: MoneyValue) => roundToCurrency(parseMoney(amount).mul(worked).div(days), currency);
  const base = share(employee.baseSalary);
  const allowances = share(addMoney(...employee.allowances.map((a) => a.amount)));
  const adjusted = roundToCurrency(
    adjustments.reduce(
      (sum, a) => (a.kind === 'bonus' ? sum.plus(parseMoney(a.amount)) : sum.minus(parseMoney(a.amount))),
      parseMoney('0'),
    ),
    currency,
  );
  const gross = roundToCurrency(addMoney(base, allowances, adjusted), currency);
  // Nothing is withheld from a line that a deduction has taken to zero or below.
  const taxable = compareMoney(gross, '0') > 0 ? gross : '0';
  const incomeTax = roundToCurrency(percentOf(taxable, employee.incomeTaxRate), currency);
  const employeePension = roundToCurrency(percentOf(taxable, employee.employeePensionRate), currency);
  const employerPension = roundToCurrency(percentOf(taxable, employee.employerPensionRate), currency);
  const deductions = roundToCurrency(addMoney(incomeTax, employeePension), currency);
  return {
    daysWorked: worked,
    daysInPeriod: days,
    base,
    allowances,
    adjustments: adjusted,
    gross,
    incomeTax,
    employeePension,
    deductions,
    net: roundToCurrency(subtractMoney(gross, deductions), currency),
    employerPension,
    employerCost: roundToCurrency(addMoney(gross, employerPension), currency),
  };
}

/** A run's totals: the sums of its rounded lines. */
export function payrollTotals(
  lines: readonly Pick<PayrollLineAmounts, 'gross' | 'deductions' | 'net' | 'employerCost'>[],
  currency: string,
) {
  const sum = (pick: (l: (typeof lines)[number]) => string) => roundToCurrency(addMoney(...lines.map(pick)), currency);
  return {
    employeeCount: lines.length,
    grossTotal: sum((l) => l.gross),
    deductionsTotal: sum((l) => l.deductions),
    netTotal: sum((l) => l.net),
    employerCostTotal: sum((l) => l.employerCost),
  };
}

// ---------------------------------------------------------------------------------------------
// Employees

/** The only form an IBAN ever leaves the server in (e.g. `•••• 1234`). */
export function maskIban(last4: string | null | undefined): string | null {
  return last4 ? `•••• ${last4}` : null;
}

export const IBAN_MESSAGE = 'Enter a valid IBAN, such as DE89 3704 0044 0532 0130 00';
export const BIC_MESSAGE = 'Enter a valid BIC (8 or 11 characters), such as DEUTDEFF';

/** Spaces are formatting: what is checked and sealed is the electronic form (`DE89370400440532013000`). */
export const ibanInput = z
  .string()
  .trim()
  .transform((v) => electronicFormatIBAN(v) ?? '')
  .refine((v) => isValidIBAN(v), IBAN_MESSAGE);

export const bicInput = z
  .string()
  .trim()
  .transform((v) => v.replace(/\s/g, '').toUpperCase())
  .refine((v) => isValidBIC(v), BIC_MESSAGE);

/** A percentage 0–100 with at most two decimals, as a decimal string. */
export const percentRate = z
  .union([z.string(), z.number()])
  .transform((v) => String(v).trim())
  .pipe(
    z
      .string()
      .regex(/^\d{1,3}(\.\d{1,2})?$/, { error: 'Enter a percentage with at most two decimals', abort: true })
      .refine((v) => compareMoney(v, '100') <= 0, 'A rate cannot be more than 100%'),
  );

const nonNegativeAmount = moneyAmount.refine((v) => compareMoney(v, '0') >= 0, 'The amount cannot be negative');

export const payrollAllowance = z.object({
  name: text.trim().min(1, 'Name the allowance').max(80, 'At most 80 characters'),
  amount: nonNegativeAmount,
});

const optionalText = (max: number) =>
  text
    .trim()
    .max(max, `At most ${max} characters`)
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .optional();

const employeeFields = {
  departmentId: z.uuid('Not a valid department').nullable().optional(),
  userId: z.uuid('Not a valid user').nullable().optional(),
  employeeNumber: text
    .trim()
    .min(1, 'Give the employee number')
    .max(30, 'At most 30 characters')
    .regex(/^[A-Za-z0-9][A-Za-z0-9./-]*$/, 'Use letters, digits, dots, dashes or slashes'),
  fullName: text.trim().min(2, 'Name must be at least 2 characters').max(200, 'At most 200 characters'),
  email: z
    .string()
    .trim()
    .max(254)
    .transform((v) => (v === '' ? null : v.toLowerCase()))
    .pipe(z.email('Please enter a valid email address').nullable())
    .nullable()
    .optional(),
  jobTitle: optionalText(120),
  startDate: isoDate,
  endDate: z.union([z.literal('').transform(() => null), z.null(), isoDate]).optional(),
  baseSalary: nonNegativeAmount,
  allowances: z.array(payrollAllowance).max(10, 'At most 10 allowances').default([]),
  incomeTaxRate: percentRate,
  employeePensionRate: percentRate,
  employerPensionRate: percentRate,
  /** Write-only: sealed at rest; empty or null on update removes it, absent keeps it. */
  iban: z.union([z.literal('').transform(() => null), z.null(), ibanInput]).optional(),
  bic: z.union([z.literal('').transform(() => null), z.null(), bicInput]).optional(),
};

/** The end date, when there is one, is not before the start date (a refinement: add it after `.omit`/`.extend`). */
export const employeeDatesInOrder = (v: { startDate?: string; endDate?: string | null }) =>
  !v.startDate || !v.endDate || v.endDate >= v.startDate;
export const EMPLOYEE_DATES_MESSAGE = { message: 'The end date cannot be before the start date', path: ['endDate'] };
const datesInOrder = employeeDatesInOrder;
const DATES_MESSAGE = EMPLOYEE_DATES_MESSAGE;

/** The employee's fields without their cross-field rule, for forms that pick or extend them. */
export const employeeFieldsObject = z.object({ organizationId: z.uuid('Choose an organization'), ...employeeFields });
export const createEmployeeInput = employeeFieldsObject.refine(datesInOrder, DATES_MESSAGE);
export type CreateEmployeeInput = z.infer<typeof createEmployeeInput>;
export type CreateEmployeeForm = z.input<typeof createEmployeeInput>;

export const updateEmployeeInput = z
  .object(employeeFields)
  .partial()
  .refine(datesInOrder, DATES_MESSAGE)
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: 'Nothing to update' });
export type UpdateEmployeeInput = z.infer<typeof updateEmployeeInput>;

export const employee = z.object({
  id: z.string(),
  organizationId: z.string(),
  organizationName: z.string(),
  departmentId: z.string().nullable(),
  departmentName: z.string().nullable(),
  userId: z.string().nullable(),
  userName: z.string().nullable(),
  employeeNumber: z.string(),
  fullName: z.string(),
  email: z.string().nullable(),
  jobTitle: z.string().nullable(),
  startDate: z.string(),
  endDate: z.string().nullable(),
  currency: z.string(),
  baseSalary: z.string(),
  allowances: z.array(z.object({ name: z.string(), amount: z.string() })),
  incomeTaxRate: z.string(),
  employeePensionRate: z.string(),
  employerPensionRate: z.string(),
  /** `•••• 1234` or null: never the IBAN, never the sealed value. */
  ibanMasked: z.string().nullable(),
  bic: z.string().nullable(),
  /**
   * A change of the bank account on file waiting for a second person's confirmation (the one who
   * asked cannot confirm it); until then salaries go to the account above.
   */
  pendingBankChange: z
    .object({
      ibanMasked: z.string().nullable(),
      bic: z.string().nullable(),
      requestedById: z.string().nullable(),
      requestedAt: z.string(),
    })
    .nullable(),
  version: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Employee = z.infer<typeof employee>;
export const employeeList = paginated(employee);
export type EmployeeList = z.infer<typeof employeeList>;

export const EMPLOYEE_SORTS = [
  'fullName',
  'employeeNumber',
  'organization',
  'department',
  'startDate',
  'baseSalary',
] as const;
const employeeFilters = {
  organizationId: z.uuid('Not a valid organization').optional(),
  departmentId: z.uuid('Not a valid department').optional(),
  /** current: employed today (no end date or one still ahead); former: left. */
  employment: z.enum(['current', 'former']).optional(),
};
export const employeeListQuery = listQuery.extend(employeeFilters);
export type EmployeeListQuery = z.infer<typeof employeeListQuery>;
export const employeeExportQuery = exportQuery.extend(employeeFilters);
export type EmployeeExportQuery = z.infer<typeof employeeExportQuery>;

/** Organizations the caller keeps payroll for, with what the employee form picks from. */
export const payrollOrganization = z.object({
  id: z.string(),
  name: z.string(),
  currency: z.string(),
  departments: z.array(z.object({ id: z.string(), name: z.string() })),
  users: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type PayrollOrganization = z.infer<typeof payrollOrganization>;
export const payrollOrganizations = z.object({ items: z.array(payrollOrganization) });

// ---------------------------------------------------------------------------------------------
// Runs

export const payrollRun = z.object({
  id: z.string(),
  organizationId: z.string(),
  organizationName: z.string(),
  period: z.string(),
  status: payrollRunStatus,
  currency: z.string(),
  employeeCount: z.number().int(),
  grossTotal: z.string(),
  deductionsTotal: z.string(),
  netTotal: z.string(),
  employerCostTotal: z.string(),
  payDate: z.string().nullable(),
  /** The scheduled pay day when it was no business day of the organization's country, and why it moved ("Christmas Day"). */
  payDateAdjustedFrom: z.string().nullable(),
  payDateAdjustedReason: z.string().nullable(),
  submittedById: z.string().nullable(),
  submittedByName: z.string().nullable(),
  submittedAt: z.string().nullable(),
  approvedByName: z.string().nullable(),
  approvedAt: z.string().nullable(),
  paidAt: z.string().nullable(),
  paymentReference: z.string().nullable(),
  version: z.number().int(),
  createdAt: z.string(),
});
export type PayrollRun = z.infer<typeof payrollRun>;
export const payrollRunList = paginated(payrollRun);
export type PayrollRunList = z.infer<typeof payrollRunList>;

export const payrollLine = z.object({
  employeeId: z.string(),
  employeeName: z.string(),
  employeeNumber: z.string(),
  departmentName: z.string().nullable(),
  daysWorked: z.number().int(),
  daysInPeriod: z.number().int(),
  base: z.string(),
  allowances: z.string(),
  adjustments: z.string(),
  gross: z.string(),
  incomeTax: z.string(),
  employeePension: z.string(),
  deductions: z.string(),
  net: z.string(),
  employerPension: z.string(),
  employerCost: z.string(),
  /**
   * Where the net is paid, masked (last four of the IBAN): as kept at approval for an approved
   * or paid run, the employee's as they are now before that.
   */
  ibanMasked: z.string().nullable(),
  bic: z.string().nullable(),
  /** The IBAN, BIC or account holder differs from this payee's in the organization's previous approved run. */
  bankDetailsChanged: z.boolean(),
});
export type PayrollLine = z.infer<typeof payrollLine>;

export const payrollAdjustment = z.object({
  id: z.string(),
  employeeId: z.string(),
  employeeName: z.string(),
  kind: payrollAdjustmentKind,
  amount: z.string(),
  reason: z.string(),
  createdByName: z.string().nullable(),
  createdAt: z.string(),
});
export type PayrollAdjustment = z.infer<typeof payrollAdjustment>;

export const payrollRunDetail = payrollRun.extend({
  lines: z.array(payrollLine),
  adjustmentItems: z.array(payrollAdjustment),
  /** What the caller may do now: the server refuses the rest, the screen shows only these. */
  actions: z.object({
    adjust: z.boolean(),
    submit: z.boolean(),
    approve: z.boolean(),
    pay: z.boolean(),
    download: z.boolean(),
  }),
  /** Why the caller cannot approve a submitted run they could otherwise approve (their own submission). */
  approveBlockedReason: z.string().nullable(),
});
export type PayrollRunDetail = z.infer<typeof payrollRunDetail>;

export const PAYROLL_RUN_SORTS = ['period', 'organization', 'status', 'netTotal', 'grossTotal'] as const;
const runFilters = {
  organizationId: z.uuid('Not a valid organization').optional(),
  status: payrollRunStatus.optional(),
};
export const payrollRunListQuery = listQuery.extend(runFilters);
export type PayrollRunListQuery = z.infer<typeof payrollRunListQuery>;
export const payrollRunExportQuery = exportQuery.extend(runFilters);
export type PayrollRunExportQuery = z.infer<typeof payrollRunExportQuery>;

export const createPayrollRunInput = z.object({
  organizationId: z.uuid('Choose an organization'),
  period: isoMonth,
});
export type CreatePayrollRunInput = z.infer<typeof createPayrollRunInput>;

export const payrollAdjustmentInput = z.object({
  employeeId: z.uuid('Choose an employee'),
  kind: payrollAdjustmentKind,
  amount: moneyAmount.refine((v) => compareMoney(v, '0') > 0, 'The amount must be more than zero'),
  reason: text.trim().min(3, 'Give a reason (at least 3 characters)').max(500, 'At most 500 characters'),
});
export type PayrollAdjustmentInput = z.infer<typeof payrollAdjustmentInput>;
export type PayrollAdjustmentForm = z.input<typeof payrollAdjustmentInput>;

export const payrollAdjustmentParams = z.object({
  id: z.uuid('Not a valid id'),
  adjustmentId: z.uuid('Not a valid id'),
});

export const payPayrollRunInput = z.object({
  paymentReference: optionalText(140),
});
export type PayPayrollRunInput = z.infer<typeof payPayrollRunInput>;

export const payrollBankFileQuery = z.object({ format: z.enum(PAYROLL_BANK_FILE_FORMAT_VALUES).default('pain001') });
export const payslipParams = z.object({ id: z.uuid('Not a valid id'), employeeId: z.uuid('Not a valid id') });
