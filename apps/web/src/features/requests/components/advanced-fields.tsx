import { CheckCircle2, Plus, Trash2, TriangleAlert } from 'lucide-react';
import { useEffect } from 'react';
import { useFieldArray, useFormContext, useWatch } from 'react-hook-form';
import { addMoney, compareMoney, isPositive, subtractMoney, toAmountString } from '@outlay/contracts/money';
import { type CreateRequestForm, type RequestFormOptions } from '@outlay/contracts/requests';
import { FieldError, FormFieldMoney, FormFieldSelect, FormFieldText } from '@/components/form';
import { Button } from '@/components/ui/button';
import { formatMoney } from '@/lib/format';
import { cn } from '@/lib/utils';

const AMOUNT = /^\d+(\.\d{1,2})?$/;
const PERCENT = /^\d{1,3}(\.\d{1,2})?$/;

/** Exact sum of the valid amounts, as an amount string; invalid ones are left for the schema to flag. */
export function sumAmounts(values: (string | null | undefined)[], pattern = AMOUNT): string {
  return toAmountString(addMoney(...values.map((v) => (v ?? '').trim()).filter((s) => pattern.test(s))));
}

/** A share without trailing zero cents: `40` rather than `40.00`. */
const percentText = (value: string) => value.replace(/\.00$/, '');

function arrayError(errors: unknown): string | undefined {
  if (!errors || typeof errors !== 'object') return undefined;
  const e = errors as { message?: unknown; root?: { message?: unknown } };
  if (typeof e.message === 'string') return e.message;
  if (typeof e.root?.message === 'string') return e.root.message;
  return undefined;
}

export function LineItemsFields({ options, currency }: { options: RequestFormOptions; currency: string }) {
  const form = useFormContext<CreateRequestForm>();
  const { fields, append, remove } = useFieldArray({ control: form.control, name: 'lineItems' });
  const items = useWatch({ control: form.control, name: 'lineItems' }) ?? [];
  const totalText = sumAmounts(items.flatMap((li) => [li?.amount, li?.taxAmount ?? '0']));
  const hasItems = fields.length > 0;

  // The request's amount is the exact total of its line items.
  useEffect(() => {
    if (!hasItems) return;
    if (form.getValues('amount') !== totalText)
      form.setValue('amount', totalText, { shouldValidate: form.formState.isSubmitted, shouldDirty: true });
  }, [hasItems, totalText, form]);

  const categoryOptions = options.categories.map((c) => ({ value: c.id, label: `${c.name} (${c.code})` }));
  const error = arrayError(form.formState.errors.lineItems);

  return (
    <fieldset className="flex flex-col gap-3">
      <legend className="mb-2 text-base font-semibold">Line items</legend>
      <p className="text-sm text-muted-foreground">
        Optional. With line items, the request's amount is their total (amount + tax).
      </p>
      {fields.map((f, i) => (
        <div
          key={f.id}
          className="grid gap-3 rounded-lg border p-3 sm:grid-cols-[2fr_1.4fr_1fr_1fr_auto] sm:items-start"
          data-testid="line-item-row"
        >
          <FormFieldText<CreateRequestForm> name={`lineItems.${i}.description`} label="Description" required />
          <FormFieldSelect<CreateRequestForm>
            name={`lineItems.${i}.categoryId`}
            label="Category"
            options={categoryOptions}
            emptyOption="Same as the request"
          />
          <FormFieldMoney<CreateRequestForm>
            name={`lineItems.${i}.amount`}
            label="Amount"
            currency={currency}
            required
          />
          <FormFieldMoney<CreateRequestForm> name={`lineItems.${i}.taxAmount`} label="Tax" currency={currency} />
          <Button
            variant="ghost"
            size="icon"
            className="text-destructive sm:mt-6"
            onClick={() => remove(i)}
            aria-label={`Remove line item ${i + 1}`}
          >
            <Trash2 aria-hidden="true" />
          </Button>
        </div>
      ))}
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Button
          variant="outline"
          size="sm"
          onClick={() => append({ description: '', categoryId: null, amount: '', taxAmount: '0.00' })}
          disabled={fields.length >= 50}
        >
          <Plus aria-hidden="true" />
          Add line item
        </Button>
        {hasItems && (
          <p className="text-sm" aria-live="polite" data-testid="line-items-total">
            Total: <span className="font-semibold tabular-nums">{formatMoney(totalText, currency)}</span>
          </p>
        )}
      </div>
      {error && <FieldError>{error}</FieldError>}
    </fieldset>
  );
}

export function AllocationFields({ options }: { options: RequestFormOptions }) {
  const form = useFormContext<CreateRequestForm>();
  const { fields, append, remove } = useFieldArray({ control: form.control, name: 'allocations' });
  const rows = useWatch({ control: form.control, name: 'allocations' }) ?? [];
  const sum = sumAmounts(
    rows.map((r) => r?.percent),
    PERCENT,
  );
  const complete = compareMoney(sum, '100') === 0;
  const remaining = toAmountString(subtractMoney('100', sum));
  const departmentOptions = options.departments.map((d) => ({ value: d.id, label: `${d.name} (${d.code})` }));
  const stored = form.formState.errors.allocations;
  // The rule on the whole list (same words as the schema) follows the shares live once the
  // form was submitted; a message the server sent stays until the next save.
  const duplicate = new Set(rows.map((r) => r?.departmentId)).size !== rows.length;
  const live =
    rows.length === 0
      ? undefined
      : !complete
        ? `Allocations must add up to 100% (now ${sum}%)`
        : duplicate
          ? 'Each department can appear once'
          : undefined;
  const serverError = (stored as { type?: string } | undefined)?.type === 'server' ? arrayError(stored) : undefined;
  const error = form.formState.isSubmitted ? (live ?? serverError) : arrayError(stored);

  const add = () => {
    const used = new Set(rows.map((r) => r?.departmentId));
    const next = options.departments.find((d) => !used.has(d.id));
    append({ departmentId: next?.id ?? '', percent: isPositive(remaining) ? percentText(remaining) : '' });
  };

  return (
    <fieldset className="flex flex-col gap-3">
      <legend className="mb-2 text-base font-semibold">Cost allocation</legend>
      <p className="text-sm text-muted-foreground">
        Optional. Split the cost across departments; the shares must add up to 100%.
      </p>
      {fields.map((f, i) => (
        <div key={f.id} className="grid grid-cols-[1fr_7rem_auto] items-start gap-3" data-testid="allocation-row">
          <FormFieldSelect<CreateRequestForm>
            name={`allocations.${i}.departmentId`}
            label={`Department ${i + 1}`}
            options={departmentOptions}
          />
          <FormFieldText<CreateRequestForm>
            name={`allocations.${i}.percent`}
            label="Share (%)"
            inputMode="decimal"
            autoComplete="off"
          />
          <Button
            variant="ghost"
            size="icon"
            className="mt-6 text-destructive"
            onClick={() => remove(i)}
            aria-label={`Remove allocation ${i + 1}`}
          >
            <Trash2 aria-hidden="true" />
          </Button>
        </div>
      ))}
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Button
          variant="outline"
          size="sm"
          onClick={add}
          disabled={fields.length >= Math.min(20, options.departments.length)}
        >
          <Plus aria-hidden="true" />
          Add department
        </Button>
        {fields.length > 0 && (
          <p
            className={cn(
              'flex items-center gap-1.5 text-sm font-medium',
              complete ? 'text-emerald-800' : 'text-amber-800',
            )}
            aria-live="polite"
            data-testid="allocation-sum"
          >
            {complete ? (
              <CheckCircle2 className="size-4" aria-hidden="true" />
            ) : (
              <TriangleAlert className="size-4" aria-hidden="true" />
            )}
            {complete
              ? 'Sums to 100%'
              : `Sums to ${percentText(sum)}% — ${isPositive(remaining) ? `${percentText(remaining)}% left` : `${percentText(toAmountString(subtractMoney(sum, '100')))}% too much`}`}
          </p>
        )}
      </div>
      {error && <FieldError>{error}</FieldError>}
    </fieldset>
  );
}
