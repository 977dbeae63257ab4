import { Plus, Trash2 } from 'lucide-react';
import { useCallback, useMemo, useState } from 'react';
import { useFieldArray, useFormContext } from 'react-hook-form';
import { useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  EMPLOYEE_DATES_MESSAGE,
  createEmployeeInput,
  employeeDatesInOrder,
  employeeFieldsObject,
  ibanInput,
  type Employee,
  type PayrollOrganization,
  type UpdateEmployeeInput,
} from '@outlay/contracts/payroll';
import {
  FormDialog,
  FormFieldCheckbox,
  FormFieldMoney,
  FormFieldSelect,
  FormFieldText,
  useStepUp,
  useVersionedEdit,
  useZodForm,
} from '@/components/form';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { useToast } from '@/components/ui/use-toast';
import { useAuth } from '@/lib/current-user';
import { messageOf } from '@/lib/api-error';
import { formatDateTime } from '@/lib/format';
import { useBankChange } from '../api/bank-change';
import { useCreateEmployee } from '../api/create-employee';
import { EMPLOYEES_URL, employeeQueryOptions } from '../api/employee';
import { useUpdateEmployee } from '../api/update-employee';

const IBAN_HINT = 'Stored encrypted. Only the last four characters are ever shown again.';

/** Editing: the organization stays; an empty IBAN keeps the stored one and the box removes it. */
const editSchema = employeeFieldsObject
  .omit({ organizationId: true })
  .extend({
    iban: z.union([z.literal(''), ibanInput]).optional(),
    removeIban: z.boolean().optional(),
  })
  .refine(employeeDatesInOrder, EMPLOYEE_DATES_MESSAGE);

function Allowances({ currency }: { currency: string | undefined }) {
  const form = useFormContext<{ allowances: { name: string; amount: string }[] }>();
  const list = useFieldArray({ control: form.control, name: 'allowances' });
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 text-sm font-medium">Monthly allowances</legend>
      {list.fields.map((field, i) => (
        <div key={field.id} className="grid grid-cols-[1fr_auto] items-end gap-2 sm:grid-cols-[1fr_10rem_auto]">
          <FormFieldText
            name={`allowances.${i}.name`}
            label={`Allowance ${i + 1} name`}
            className="col-span-2 sm:col-span-1"
          />
          <FormFieldMoney name={`allowances.${i}.amount`} label={`Allowance ${i + 1} amount`} currency={currency} />
          <Button
            type="button"
            variant="ghost"
            size="icon"
            onClick={() => list.remove(i)}
            aria-label={`Remove allowance ${i + 1}`}
          >
            <Trash2 aria-hidden="true" />
          </Button>
        </div>
      ))}
      <Button
        type="button"
        variant="outline"
        size="sm"
        className="self-start"
        onClick={() => list.append({ name: '', amount: '' })}
        disabled={list.fields.length >= 10}
      >
        <Plus aria-hidden="true" /> Add allowance
      </Button>
    </fieldset>
  );
}

function SharedFields({ organization }: { organization: PayrollOrganization | undefined }) {
  const departments = organization?.departments ?? [];
  const people = organization?.users ?? [];
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormFieldText name="fullName" label="Full name" required autoComplete="off" />
        <FormFieldText name="employeeNumber" label="Employee number" required autoComplete="off" />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormFieldText name="jobTitle" label="Job title" autoComplete="off" />
        <FormFieldText name="email" label="E-mail" type="email" autoComplete="off" />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormFieldSelect
          name="departmentId"
          label="Department"
          emptyOption="No department"
          options={departments.map((d) => ({ value: d.id, label: d.name }))}
        />
        <FormFieldSelect
          name="userId"
          label="Linked user account"
          emptyOption="Not linked"
          options={people.map((u) => ({ value: u.id, label: u.name }))}
        />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormFieldText name="startDate" label="Start date" required type="date" />
        <FormFieldText name="endDate" label="End date" type="date" hint="Leave empty while employed" />
      </div>
      <FormFieldMoney name="baseSalary" label="Monthly base salary" required currency={organization?.currency} />
      <Allowances currency={organization?.currency} />
      <div className="grid gap-4 sm:grid-cols-3">
        <FormFieldText name="incomeTaxRate" label="Income tax (%)" required inputMode="decimal" />
        <FormFieldText name="employeePensionRate" label="Employee pension (%)" required inputMode="decimal" />
        <FormFieldText name="employerPensionRate" label="Employer pension (%)" required inputMode="decimal" />
      </div>
    </>
  );
}

export function CreateEmployeeDialog({
  open,
  onOpenChange,
  organizations,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  organizations: readonly PayrollOrganization[];
}) {
  const { toast } = useToast();
  const create = useCreateEmployee();
  const defaults = useMemo(
    () => ({
      organizationId: organizations.length === 1 ? organizations[0]!.id : undefined,
      employeeNumber: '',
      fullName: '',
      email: '',
      jobTitle: '',
      departmentId: null,
      userId: null,
      startDate: new Date().toISOString().slice(0, 10),
      endDate: '',
      baseSalary: '',
      allowances: [],
      incomeTaxRate: '0',
      employeePensionRate: '0',
      employerPensionRate: '0',
      iban: '',
      bic: '',
    }),
    [organizations],
  );
  const form = useZodForm(createEmployeeInput, defaults);
  const organization = organizations.find((o) => o.id === form.watch('organizationId'));
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title="New employee"
      description="Salary and allowances are monthly, in the organization's currency."
      form={form}
      size="lg"
      submitLabel="Add employee"
      pendingLabel="Adding…"
      onSubmit={async (values) => {
        const employee = await create.mutateAsync(values);
        toast({
          title: 'Employee added',
          description: `${employee.fullName} joins ${employee.organizationName}'s payroll.`,
        });
      }}
    >
      <FormFieldSelect
        name="organizationId"
        label="Organization"
        required
        placeholder="Choose an organization"
        options={organizations.map((o) => ({ value: o.id, label: o.name }))}
      />
      <SharedFields organization={organization} />
      <div className="grid gap-4 sm:grid-cols-[2fr_1fr]">
        <FormFieldText name="iban" label="IBAN" autoComplete="off" spellCheck={false} hint={IBAN_HINT} />
        <FormFieldText name="bic" label="BIC" autoComplete="off" spellCheck={false} />
      </div>
    </FormDialog>
  );
}

/**
 * A change of the bank account on file waits for a second payroll manager: anyone else may
 * confirm it (after a password check), anyone may discard it.
 */
function PendingBankChange({ employee, onDone }: { employee: Employee; onDone: () => void }) {
  const pending = employee.pendingBankChange;
  const { user } = useAuth();
  const { toast } = useToast();
  const stepUp = useStepUp();
  const { confirm, discard } = useBankChange(stepUp.withStepUp);
  const [error, setError] = useState<string | null>(null);
  if (!pending) return null;
  const own = pending.requestedById === user?.id;
  const account = `${pending.ibanMasked ?? 'no IBAN'}${pending.bic ? ` · ${pending.bic}` : ''}`;
  const run = async (action: typeof confirm, done: string) => {
    setError(null);
    try {
      await action.mutateAsync(employee.id);
      toast({ title: done, description: employee.fullName });
      onDone();
    } catch (e) {
      setError(messageOf(e, 'Could not change the bank account.'));
    }
  };
  return (
    <Alert variant="warning" data-testid="pending-bank-change" className="flex-col">
      <p>
        A change of the bank account to {account}, asked for on {formatDateTime(pending.requestedAt)}, waits for another
        payroll manager&apos;s confirmation. Salaries go to {employee.ibanMasked ?? 'no account'} until then.
      </p>
      {own && <p>You asked for this change; someone else must confirm it.</p>}
      {error && <p role="alert">{error}</p>}
      <div className="flex flex-wrap gap-2">
        {!own && (
          <Button
            type="button"
            size="sm"
            disabled={confirm.isPending}
            onClick={() => void run(confirm, 'Bank account change confirmed')}
          >
            Confirm the new account
          </Button>
        )}
        <Button
          type="button"
          size="sm"
          variant="outline"
          disabled={discard.isPending}
          onClick={() => void run(discard, 'Bank account change discarded')}
        >
          Discard the change
        </Button>
      </div>
      {stepUp.dialog}
    </Alert>
  );
}

function editValues(e: Employee) {
  return {
    employeeNumber: e.employeeNumber,
    fullName: e.fullName,
    email: e.email ?? '',
    jobTitle: e.jobTitle ?? '',
    departmentId: e.departmentId,
    userId: e.userId,
    startDate: e.startDate,
    endDate: e.endDate ?? '',
    baseSalary: e.baseSalary,
    allowances: e.allowances,
    incomeTaxRate: e.incomeTaxRate,
    employeePensionRate: e.employeePensionRate,
    employerPensionRate: e.employerPensionRate,
    iban: '',
    bic: e.bic ?? '',
    removeIban: false,
  };
}

export function EditEmployeeDialog({
  open,
  onOpenChange,
  employee,
  organization,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  employee: Employee;
  organization: PayrollOrganization | undefined;
}) {
  const { toast } = useToast();
  const queryClient = useQueryClient();
  const update = useUpdateEmployee();
  const form = useZodForm(editSchema, editValues(employee));
  const load = useCallback(async () => {
    const fresh = await queryClient.fetchQuery({ ...employeeQueryOptions(employee.id), staleTime: 0 });
    void queryClient.invalidateQueries({ queryKey: [EMPLOYEES_URL] });
    return fresh;
  }, [queryClient, employee.id]);
  const versioned = useVersionedEdit({ record: employee, form, load, toValues: editValues });
  const removing = form.watch('removeIban');
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Edit ${employee.fullName}`}
      description={`${employee.organizationName} · changes apply to draft runs when they are recalculated and to new runs.`}
      form={form}
      size="lg"
      keepValuesOnClose
      onReload={versioned.reload}
      onSubmit={async ({ iban, removeIban, ...rest }) => {
        const input: UpdateEmployeeInput = { ...rest };
        if (removeIban) input.iban = null;
        else if (iban) input.iban = iban;
        const saved = await update.mutateAsync({ id: employee.id, input, headers: versioned.headers() });
        versioned.saved(saved);
        toast({
          title: 'Employee saved',
          description:
            saved.pendingBankChange && !employee.pendingBankChange
              ? `${saved.fullName} was updated. The new bank account waits for another payroll manager's confirmation.`
              : `${saved.fullName} was updated.`,
        });
      }}
    >
      <PendingBankChange employee={employee} onDone={() => onOpenChange(false)} />
      <SharedFields organization={organization} />
      <div className="grid gap-4 sm:grid-cols-[2fr_1fr]">
        <FormFieldText
          name="iban"
          label="New IBAN"
          autoComplete="off"
          spellCheck={false}
          disabled={removing}
          placeholder={employee.ibanMasked ? `Current: ${employee.ibanMasked}` : 'No bank account on file'}
          hint={`Leave empty to keep the current account. ${IBAN_HINT}`}
        />
        <FormFieldText name="bic" label="BIC" autoComplete="off" spellCheck={false} />
      </div>
      {employee.ibanMasked && (
        <FormFieldCheckbox name="removeIban" label={`Remove the bank account ${employee.ibanMasked}`} />
      )}
    </FormDialog>
  );
}
