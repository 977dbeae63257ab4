import { useCallback, useEffect, useMemo, useState } from 'react';
import { z } from 'zod';
import {
  BUDGET_IMPORT_HEADERS,
  BUDGET_PERIOD_LABELS,
  BUDGET_PERIOD_TYPES,
  budgetPeriodEnd,
  budgetPeriodLabel,
  fiscalAlignmentError,
  copyBudgetPeriodInput,
  createBudgetLineInput,
  PAYROLL_CATEGORY_CODE,
  type BudgetImportResult,
  type BudgetLine,
  type BudgetOptions,
  type BudgetPeriodType,
  type CopyBudgetPeriodResult,
} from '@outlay/contracts/budgets';
import {
  FormDialog,
  FormFieldCheckbox,
  FormFieldMoney,
  FormFieldSelect,
  FormFieldText,
  FormFieldTextarea,
  useVersionedEdit,
  useZodForm,
} from '@/components/form';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { useToast } from '@/components/ui/use-toast';
import { formatDate, formatMoney } from '@/lib/format';
import {
  fetchBudgetLine,
  useCopyBudgetPeriod,
  useCreateBudgetLine,
  useImportBudgetLines,
  useUpdateBudgetLine,
} from '../api/budget-lines';

const PERIOD_OPTIONS = BUDGET_PERIOD_TYPES.map((value) => ({ value, label: BUDGET_PERIOD_LABELS[value] }));
// Thresholds are typed as text ("80, 100") and become the contract's list of percentages.
const THRESHOLDS_TEXT = z
  .string()
  .trim()
  .regex(/^\d{1,3}(\s*[,;]\s*\d{1,3})*$/, 'Whole percentages separated by commas, e.g. 80, 100')
  .transform((text) => text.split(/[,;]/).map((t) => Number(t.trim())))
  .pipe(createBudgetLineInput.shape.thresholds.unwrap());
// A month input ("2026-04") where the contract takes the period's first day.
const MONTH = z.string().regex(/^\d{4}-\d{2}$/, 'Choose the first month of the period');

const lineForm = createBudgetLineInput.omit({ periodStart: true, ownerIds: true }).extend({
  periodMonth: MONTH,
  thresholds: THRESHOLDS_TEXT,
  countsPayroll: z.boolean(),
});

/** What the chosen start makes: "Q3 FY 2026/27, 1 Oct 2026 to 31 Dec 2026", or why it is not one of the organization's periods. */
function periodHint(
  org: BudgetOptions['organizations'][number] | undefined,
  type: BudgetPeriodType | undefined,
  month: string | undefined,
): string {
  if (!org || !type || !month || !/^\d{4}-\d{2}$/.test(month))
    return 'Quarters and years follow the organization’s fiscal year';
  const start = `${month}-01`;
  const wrong = fiscalAlignmentError(type, start, org);
  if (wrong) return wrong;
  return `${budgetPeriodLabel(type, start, org.fiscalYearStartMonth)}: ${formatDate(start)} to ${formatDate(budgetPeriodEnd(type, start))}`;
}

interface Common {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** Create a line, or edit one (amount, currency, thresholds, notes; the key fields are fixed). */
export function BudgetLineDialog({
  open,
  onOpenChange,
  options,
  line,
}: Common & { options: BudgetOptions; line?: BudgetLine | null }) {
  const { toast } = useToast();
  const create = useCreateBudgetLine();
  const update = useUpdateBudgetLine();
  const firstOrg = options.organizations[0];
  const thisMonth = new Date().toISOString().slice(0, 7);
  const valuesOf = useCallback(
    (l: BudgetLine | null | undefined) => ({
      organizationId: l?.organizationId ?? (options.organizations.length === 1 ? firstOrg?.id : undefined),
      departmentId: l?.departmentId ?? null,
      categoryId: l?.categoryId ?? null,
      periodType: l?.periodType ?? ('quarter' as const),
      periodMonth: l?.periodStart.slice(0, 7) ?? thisMonth,
      currency: l?.currency ?? firstOrg?.currency ?? 'USD',
      amount: l?.amount ?? '',
      thresholds: (l?.thresholds ?? [80, 100]).join(', '),
      notes: l?.notes ?? '',
      countsPayroll: l?.countsPayroll ?? false,
    }),
    [options.organizations.length, firstOrg, thisMonth],
  );
  const form = useZodForm(lineForm, valuesOf(line));
  const load = useCallback(() => fetchBudgetLine(line!.id), [line]);
  const versioned = useVersionedEdit({ record: line, form, load, toValues: valuesOf });
  const orgId = form.watch('organizationId');
  const currency = form.watch('currency');
  const periodType = form.watch('periodType');
  const periodMonth = form.watch('periodMonth');
  const org = options.organizations.find((o) => o.id === orgId);
  const depts = options.departments.filter((d) => d.organizationId === orgId);
  const cats = options.categories.filter((c) => c.organizationId === null || c.organizationId === orgId);
  const editing = Boolean(line);
  const categoryId = form.watch('categoryId');
  const payrollCategory =
    Boolean(categoryId) && options.categories.find((c) => c.id === categoryId)?.code === PAYROLL_CATEGORY_CODE;
  const mayCountPayroll = !categoryId || payrollCategory;
  // A new Payroll line carries staff cost; a category that cannot count payroll clears the box.
  useEffect(() => {
    if (editing) return;
    if (payrollCategory) form.setValue('countsPayroll', true);
    else if (!mayCountPayroll) form.setValue('countsPayroll', false);
  }, [form, editing, payrollCategory, mayCountPayroll]);
  // A new line's currency follows the chosen organization's, until the user picks one by hand
  // (a change through the field marks it dirty; this one does not).
  useEffect(() => {
    if (editing) return;
    const sub = form.watch((values, { name }) => {
      if (name !== 'organizationId' || form.getFieldState('currency').isDirty) return;
      const org = options.organizations.find((o) => o.id === values.organizationId);
      if (org && org.currency !== values.currency) form.setValue('currency', org.currency, { shouldValidate: true });
    });
    return () => sub.unsubscribe();
  }, [form, editing, options.organizations]);

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={editing ? 'Edit budget line' : 'New budget line'}
      description={
        editing
          ? line!.label
          : 'An amount for an organization, optionally one department and one category, over one period.'
      }
      form={form}
      size="lg"
      submitLabel={editing ? 'Save' : 'Create line'}
      onReload={line ? versioned.reload : undefined}
      onSubmit={async (v) => {
        const notes = v.notes ? v.notes : null;
        if (line) {
          const saved = await update.mutateAsync({
            id: line.id,
            input: {
              amount: v.amount,
              currency: v.currency,
              thresholds: v.thresholds,
              notes,
              countsPayroll: v.countsPayroll,
            },
            headers: versioned.headers(),
          });
          versioned.saved(saved);
          toast({ title: 'Budget line saved', description: line.label });
        } else {
          const created = await create.mutateAsync({
            organizationId: v.organizationId,
            departmentId: v.departmentId ?? null,
            categoryId: v.categoryId ?? null,
            periodType: v.periodType,
            periodStart: `${v.periodMonth}-01`,
            currency: v.currency,
            amount: v.amount,
            thresholds: v.thresholds,
            notes,
            countsPayroll: v.countsPayroll,
          });
          toast({ title: 'Budget line created', description: created.label });
        }
      }}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <FormFieldSelect
          name="organizationId"
          label="Organization"
          required
          disabled={editing}
          placeholder="Choose an organization"
          options={options.organizations.map((o) => ({ value: o.id, label: o.name }))}
        />
        <FormFieldSelect
          name="departmentId"
          label="Department"
          disabled={editing || !orgId}
          emptyOption="Whole organization"
          options={depts.map((d) => ({ value: d.id, label: d.name }))}
        />
        <FormFieldSelect
          name="categoryId"
          label="Category"
          disabled={editing}
          emptyOption="All categories"
          options={cats.map((c) => ({ value: c.id, label: c.name }))}
        />
        <FormFieldSelect name="periodType" label="Period" required disabled={editing} options={PERIOD_OPTIONS} />
        <FormFieldText
          name="periodMonth"
          label="Starting month"
          type="month"
          required
          disabled={editing}
          hint={periodHint(org, periodType, periodMonth)}
        />
        <FormFieldSelect
          name="currency"
          label="Currency"
          required
          options={options.currencies.map((c) => ({ value: c, label: c }))}
        />
        <FormFieldMoney name="amount" label="Amount" required currency={currency || 'USD'} />
        <FormFieldText
          name="thresholds"
          label="Alert thresholds (%)"
          required
          hint="Owners are told once when use reaches each one"
        />
      </div>
      <FormFieldCheckbox
        name="countsPayroll"
        label="Counts payroll"
        disabled={!mayCountPayroll}
        description={
          mayCountPayroll
            ? 'Approved payroll (employer cost) counts against this line beside the requests: for lines that carry staff cost.'
            : 'Only a line of the Payroll category or of no category can count payroll.'
        }
      />
      <FormFieldTextarea name="notes" label="Notes" rows={2} />
    </FormDialog>
  );
}

const copyForm = copyBudgetPeriodInput.omit({ fromPeriodStart: true }).extend({
  fromMonth: MONTH,
  adjustPercent: z.coerce
    .number({ error: 'Enter a percentage' })
    .pipe(copyBudgetPeriodInput.shape.adjustPercent.unwrap()),
});

function previousStart(type: BudgetPeriodType): string {
  const now = new Date();
  const m = now.getUTCMonth();
  const d =
    type === 'month'
      ? new Date(Date.UTC(now.getUTCFullYear(), m - 1, 1))
      : type === 'quarter'
        ? new Date(Date.UTC(now.getUTCFullYear(), Math.floor(m / 3) * 3 - 3, 1))
        : new Date(Date.UTC(now.getUTCFullYear() - 1, 0, 1));
  return d.toISOString().slice(0, 7);
}

/** What a copy did: created lines and those that already existed. */
export function CopyReportDialog({ result, onClose }: { result: CopyBudgetPeriodResult | null; onClose: () => void }) {
  return (
    <Dialog open={Boolean(result)} onOpenChange={(o) => (o ? undefined : onClose())}>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>Copied to the period starting {formatDate(result?.toPeriodStart)}</DialogTitle>
          <DialogDescription>
            {result?.created} created, {result?.skipped} already existed and were left as they are.
          </DialogDescription>
        </DialogHeader>
        <ul className="max-h-80 divide-y overflow-y-auto rounded-md border text-sm" aria-label="Copy report">
          {result?.report.map((r) => (
            <li key={r.sourceId} className="flex flex-wrap items-center justify-between gap-2 p-2">
              <span>{r.label}</span>
              <span
                className={
                  r.status === 'created'
                    ? 'text-emerald-700 dark:text-emerald-400'
                    : 'text-amber-700 dark:text-amber-400'
                }
              >
                {r.status === 'created' ? `Created · ${formatMoney(r.amount, r.currency)}` : r.message}
              </span>
            </li>
          ))}
        </ul>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button onClick={onClose}>Done</Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}

/** Copy every line of a period into the next, optionally scaled. */
export function CopyPeriodDialog({
  open,
  onOpenChange,
  options,
  onCopied,
}: Common & { options: BudgetOptions; onCopied: (r: CopyBudgetPeriodResult) => void }) {
  const copy = useCopyBudgetPeriod();
  const form = useZodForm(copyForm, {
    organizationId: options.organizations.length === 1 ? options.organizations[0]?.id : null,
    periodType: 'quarter' as BudgetPeriodType,
    fromMonth: previousStart('quarter'),
    adjustPercent: '0' as unknown as number,
  });
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Copy from last period"
      description="Every line of the chosen period is copied into the period after it. Lines that already exist there are reported and left alone."
      form={form}
      submitLabel="Copy lines"
      onSubmit={async (v) => {
        onCopied(
          await copy.mutateAsync({
            organizationId: v.organizationId ?? null,
            periodType: v.periodType,
            fromPeriodStart: `${v.fromMonth}-01`,
            adjustPercent: v.adjustPercent,
          }),
        );
      }}
    >
      <FormFieldSelect
        name="organizationId"
        label="Organization"
        emptyOption="All my organizations"
        options={options.organizations.map((o) => ({ value: o.id, label: o.name }))}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <FormFieldSelect name="periodType" label="Period" required options={PERIOD_OPTIONS} />
        <FormFieldText name="fromMonth" label="Copy from (first month)" type="month" required />
      </div>
      <FormFieldText
        name="adjustPercent"
        label="Change amounts by (%)"
        type="number"
        inputMode="decimal"
        hint="e.g. 5 for +5%, -10 for −10%; 0 copies as they are"
      />
    </FormDialog>
  );
}

function toBase64(buffer: ArrayBuffer): string {
  let binary = '';
  const bytes = new Uint8Array(buffer);
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** CSV/XLSX import: a preview with a per-row report, then the import (nothing while a row fails). */
export function ImportDialog({ open, onOpenChange }: Common) {
  const { toast } = useToast();
  const run = useImportBudgetLines();
  const [file, setFile] = useState<{ name: string; format: 'csv' | 'xlsx'; content: string } | null>(null);
  const [report, setReport] = useState<BudgetImportResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const failing = useMemo(() => report?.report.filter((r) => r.errors.length > 0) ?? [], [report]);

  const close = () => {
    setFile(null);
    setReport(null);
    setError(null);
    onOpenChange(false);
  };
  const choose = async (f: File | undefined) => {
    setReport(null);
    setError(null);
    if (!f) return setFile(null);
    const xlsx = /\.xlsx$/i.test(f.name);
    const content = xlsx ? toBase64(await f.arrayBuffer()) : await f.text();
    setFile({ name: f.name, format: xlsx ? 'xlsx' : 'csv', content });
  };
  const send = async (dryRun: boolean) => {
    if (!file) return;
    setError(null);
    try {
      const r = await run.mutateAsync({ format: file.format, content: file.content, dryRun });
      if (dryRun) setReport(r);
      else {
        toast({
          title: 'Budget lines imported',
          description: `${r.created} ${r.created === 1 ? 'line' : 'lines'} created.`,
        });
        close();
      }
    } catch (e) {
      setError((e as Error).message);
    }
  };

  return (
    <Dialog open={open} onOpenChange={(o) => (o ? undefined : close())}>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>Import budget lines</DialogTitle>
          <DialogDescription>
            A CSV or XLSX file with the columns {BUDGET_IMPORT_HEADERS.join(', ')}. Thresholds like “80;100”. Preview
            first: nothing is imported while a row has errors.
          </DialogDescription>
        </DialogHeader>
        <div className="flex flex-col gap-2">
          <Label htmlFor="budget-import-file">File</Label>
          <input
            id="budget-import-file"
            type="file"
            accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            className="text-sm file:mr-3 file:rounded-md file:border file:bg-background file:px-3 file:py-1.5"
            onChange={(e) => void choose(e.target.files?.[0])}
          />
        </div>
        {error && (
          <Alert variant="danger" role="alert">
            {error}
          </Alert>
        )}
        {report && (
          <div className="flex flex-col gap-2">
            <p className="text-sm" role="status">
              {report.valid} of {report.total} rows are ready
              {failing.length > 0 ? `; ${failing.length} ${failing.length === 1 ? 'has' : 'have'} errors` : ''}.
            </p>
            <ul className="max-h-72 divide-y overflow-y-auto rounded-md border text-sm" aria-label="Import report">
              {report.report.map((r) => (
                <li key={r.row} className="p-2">
                  <div className="flex justify-between gap-2">
                    <span>
                      Row {r.row}: {r.label || '—'}
                    </span>
                    <span className={r.errors.length ? 'text-destructive' : 'text-emerald-700 dark:text-emerald-400'}>
                      {r.errors.length ? 'Error' : 'OK'}
                    </span>
                  </div>
                  {r.errors.length > 0 && (
                    <ul className="ml-4 list-disc text-xs text-destructive">
                      {r.errors.map((e) => (
                        <li key={e}>{e}</li>
                      ))}
                    </ul>
                  )}
                </li>
              ))}
            </ul>
          </div>
        )}
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={close}>
            Cancel
          </Button>
          <Button variant="outline" disabled={!file || run.isPending} onClick={() => void send(true)}>
            Preview
          </Button>
          <Button
            disabled={!report || failing.length > 0 || report.valid === 0 || run.isPending}
            onClick={() => void send(false)}
          >
            Import {report ? report.valid : ''} lines
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}

export function UsageBar({ percent, label }: { percent: string; label: string }) {
  const p = Number(percent);
  const tone = p >= 100 ? 'bg-red-600' : p >= 80 ? 'bg-amber-500' : 'bg-emerald-600';
  return (
    <div className="flex min-w-28 items-center gap-2">
      <div
        role="progressbar"
        aria-label={label}
        aria-valuenow={Math.round(p)}
        aria-valuemin={0}
        aria-valuemax={Math.max(100, Math.round(p))}
        className="h-2 flex-1 overflow-hidden rounded-full bg-muted"
      >
        <div className={`h-full ${tone}`} style={{ width: `${Math.min(100, Math.max(0, p))}%` }} />
      </div>
      <span className="w-14 text-right text-xs tabular-nums">{percent}%</span>
    </div>
  );
}
