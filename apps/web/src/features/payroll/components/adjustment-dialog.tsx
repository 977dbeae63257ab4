import { useMemo } from 'react';
import {
  PAYROLL_ADJUSTMENT_KIND_LABELS,
  PAYROLL_ADJUSTMENT_KIND_VALUES,
  payrollAdjustmentInput,
  type PayrollRunDetail,
} from '@outlay/contracts/payroll';
import { FormDialog, FormFieldMoney, FormFieldSelect, FormFieldTextarea, useZodForm } from '@/components/form';
import { useToast } from '@/components/ui/use-toast';
import { formatMoney } from '@/lib/format';
import { useAddPayrollAdjustment } from '../api/payroll-adjustments';

/** A bonus or deduction on one employee's line, with the reason the audit trail keeps. */
export function AdjustmentDialog({
  run,
  open,
  onOpenChange,
  employeeId,
}: {
  run: PayrollRunDetail;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  employeeId?: string;
}) {
  const { toast } = useToast();
  const add = useAddPayrollAdjustment();
  const idempotencyKey = useMemo(() => (open ? crypto.randomUUID() : ''), [open]);
  const form = useZodForm(payrollAdjustmentInput, { employeeId, kind: 'bonus', amount: '', reason: '' });
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Add an adjustment"
      description="The line and the run's totals are recomputed; the reason is kept in the audit history."
      form={form}
      submitLabel="Add adjustment"
      pendingLabel="Adding…"
      onSubmit={async (input) => {
        const next = await add.mutateAsync({ runId: run.id, input, idempotencyKey });
        toast({ title: 'Adjustment added', description: `Net total now ${formatMoney(next.netTotal, next.currency)}` });
      }}
    >
      <FormFieldSelect
        name="employeeId"
        label="Employee"
        required
        placeholder="Choose an employee"
        options={run.lines.map((l) => ({ value: l.employeeId, label: `${l.employeeName} (${l.employeeNumber})` }))}
      />
      <FormFieldSelect
        name="kind"
        label="Kind"
        required
        options={PAYROLL_ADJUSTMENT_KIND_VALUES.map((k) => ({ value: k, label: PAYROLL_ADJUSTMENT_KIND_LABELS[k] }))}
      />
      <FormFieldMoney name="amount" label="Amount" required currency={run.currency} />
      <FormFieldTextarea name="reason" label="Reason" required rows={2} />
    </FormDialog>
  );
}
