// Payroll (PRODUCT §3 /payroll): employees, monthly runs per organization and their lines.

export const PAYROLL_RUN_STATUS_VALUES = ['draft', 'submitted', 'approved', 'paid'] as const;
export type PayrollRunStatus = (typeof PAYROLL_RUN_STATUS_VALUES)[number];

export const PAYROLL_ADJUSTMENT_KIND_VALUES = ['bonus', 'deduction'] as const;
export type PayrollAdjustmentKind = (typeof PAYROLL_ADJUSTMENT_KIND_VALUES)[number];
