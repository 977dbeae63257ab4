import { useMemo } from 'react';
import { createPayrollRunInput, type PayrollOrganization, type PayrollRunDetail } from '@outlay/contracts/payroll';
import { FormDialog, FormFieldSelect, FormFieldText, useZodForm } from '@/components/form';
import { useToast } from '@/components/ui/use-toast';
import { formatMonth } from '@/lib/format';
import { useCreatePayrollRun } from '../api/create-payroll-run';

function thisMonth() {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}`;
}

/** Creates an organization's draft run for a month, with a line for everyone employed in it. */
export function NewRunDialog({
  open,
  onOpenChange,
  organizations,
  onCreated,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  organizations: readonly PayrollOrganization[];
  onCreated: (run: PayrollRunDetail) => void;
}) {
  const { toast } = useToast();
  const create = useCreatePayrollRun();
  // One key per opening of the dialog: a double submit creates one run.
  const idempotencyKey = useMemo(() => (open ? crypto.randomUUID() : ''), [open]);
  const form = useZodForm(createPayrollRunInput, {
    organizationId: organizations.length === 1 ? organizations[0]!.id : undefined,
    period: thisMonth(),
  });
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title="New payroll run"
      description="The draft gets a line for everyone employed in the month; joiners and leavers are pro-rated by calendar days."
      form={form}
      submitLabel="Create draft"
      pendingLabel="Creating…"
      onSubmit={async (input) => {
        const run = await create.mutateAsync({ input, idempotencyKey });
        toast({ title: 'Draft created', description: `${run.organizationName} · ${formatMonth(run.period)}` });
        onCreated(run);
      }}
    >
      <FormFieldSelect
        name="organizationId"
        label="Organization"
        required
        placeholder="Choose an organization"
        options={organizations.map((o) => ({ value: o.id, label: o.name }))}
      />
      <FormFieldText name="period" label="Month" required type="month" />
    </FormDialog>
  );
}
