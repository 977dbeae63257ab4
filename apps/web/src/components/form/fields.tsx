import { useId, type ComponentProps, type ReactNode } from 'react';
import { Controller, useFormContext, type FieldPath, type FieldValues } from 'react-hook-form';
import { Input } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Textarea } from '@/components/ui/textarea';
import { cn } from '@/lib/utils';
import { Checkbox } from './checkbox';
import { FieldError, FormField } from './form-field';

/*
 * Fields for forms built with useZodForm and wrapped in <FormDialog> or <Form> (which provide
 * the form through react-hook-form's context). Each is labelled, shows its hint and the zod
 * (or server) message under it, and is marked aria-invalid while wrong.
 */

interface BaseFieldProps<T extends FieldValues> {
  name: FieldPath<T>;
  label: ReactNode;
  hint?: ReactNode;
  className?: string;
  disabled?: boolean;
  /** Adds " *" to the label; the schema decides what is really required. */
  required?: boolean;
}

function fieldLabel(label: ReactNode, required?: boolean) {
  return required ? (
    <>
      {label}
      <span aria-hidden="true"> *</span>
    </>
  ) : (
    label
  );
}

/** The message at a dotted field path of react-hook-form's errors, if any. */
export function fieldErrorMessage(errors: unknown, name: string): string | undefined {
  let node: unknown = errors;
  for (const part of name.split('.'))
    node = node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
  const message = node && typeof node === 'object' ? (node as { message?: unknown }).message : undefined;
  return typeof message === 'string' && message ? message : undefined;
}

export type FormFieldTextProps<T extends FieldValues> = BaseFieldProps<T> &
  Omit<ComponentProps<'input'>, 'name' | 'className' | 'disabled' | 'required' | 'defaultValue' | 'value'>;

export function FormFieldText<T extends FieldValues = FieldValues>({
  name,
  label,
  hint,
  className,
  disabled,
  required,
  ...inputProps
}: FormFieldTextProps<T>) {
  const form = useFormContext<T>();
  const error = fieldErrorMessage(form.formState.errors, name);
  return (
    <FormField label={fieldLabel(label, required)} hint={hint} error={error} className={className}>
      <Input aria-required={required || undefined} disabled={disabled} {...inputProps} {...form.register(name)} />
    </FormField>
  );
}

export type FormFieldTextareaProps<T extends FieldValues> = BaseFieldProps<T> &
  Omit<ComponentProps<'textarea'>, 'name' | 'className' | 'disabled' | 'required' | 'defaultValue' | 'value'>;

export function FormFieldTextarea<T extends FieldValues = FieldValues>({
  name,
  label,
  hint,
  className,
  disabled,
  required,
  rows = 3,
  ...props
}: FormFieldTextareaProps<T>) {
  const form = useFormContext<T>();
  const error = fieldErrorMessage(form.formState.errors, name);
  return (
    <FormField label={fieldLabel(label, required)} hint={hint} error={error} className={className}>
      <Textarea
        rows={rows}
        aria-required={required || undefined}
        disabled={disabled}
        {...props}
        {...form.register(name)}
      />
    </FormField>
  );
}

export interface SelectOption {
  value: string;
  label: string;
  disabled?: boolean;
}

const NONE = '__none';

export interface FormFieldSelectProps<T extends FieldValues> extends BaseFieldProps<T> {
  options: readonly SelectOption[];
  placeholder?: string;
  /** Adds a first choice that clears the field, e.g. "No department"; it stores `emptyValue`. */
  emptyOption?: string;
  /** What the empty choice stores (default null). */
  emptyValue?: null | '' | undefined;
}

export function FormFieldSelect<T extends FieldValues = FieldValues>({
  name,
  label,
  hint,
  className,
  disabled,
  required,
  options,
  placeholder = 'Select…',
  emptyOption,
  emptyValue = null,
}: FormFieldSelectProps<T>) {
  const form = useFormContext<T>();
  const error = fieldErrorMessage(form.formState.errors, name);
  return (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => {
        const raw = field.value as unknown;
        const value = raw === null || raw === undefined || raw === '' ? (emptyOption ? NONE : '') : String(raw);
        return (
          <FormField label={fieldLabel(label, required)} hint={hint} error={error} className={className}>
            {(control) => (
              <Select
                value={value}
                disabled={disabled ?? field.disabled}
                onValueChange={(next) => field.onChange(next === NONE ? emptyValue : next)}
                name={field.name}
              >
                <SelectTrigger ref={field.ref} onBlur={field.onBlur} aria-required={required || undefined} {...control}>
                  <SelectValue placeholder={placeholder} />
                </SelectTrigger>
                <SelectContent>
                  {emptyOption && <SelectItem value={NONE}>{emptyOption}</SelectItem>}
                  {options.map((option) => (
                    <SelectItem key={option.value} value={option.value} disabled={option.disabled}>
                      {option.label}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            )}
          </FormField>
        );
      }}
    />
  );
}

export interface FormFieldCheckboxProps<T extends FieldValues> extends Omit<BaseFieldProps<T>, 'required'> {
  /** Text next to the box; `label` is the box's own label. */
  description?: ReactNode;
}

export function FormFieldCheckbox<T extends FieldValues = FieldValues>({
  name,
  label,
  hint,
  description,
  className,
  disabled,
}: FormFieldCheckboxProps<T>) {
  const form = useFormContext<T>();
  const error = fieldErrorMessage(form.formState.errors, name);
  const id = useId();
  const hintId = hint || description ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  return (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => (
        <div className={cn('flex flex-col gap-1.5', className)}>
          <div className="flex items-start gap-2.5">
            <Checkbox
              id={id}
              ref={field.ref}
              name={field.name}
              checked={Boolean(field.value)}
              onCheckedChange={field.onChange}
              onBlur={field.onBlur}
              disabled={disabled ?? field.disabled}
              aria-invalid={error ? true : undefined}
              aria-describedby={[hintId, errorId].filter(Boolean).join(' ') || undefined}
              className="mt-0.5"
            />
            <div className="flex flex-col gap-0.5">
              <label htmlFor={id} className="cursor-pointer text-sm font-medium leading-tight">
                {label}
              </label>
              {(description || hint) && (
                <p id={hintId} className="text-xs text-muted-foreground">
                  {description ?? hint}
                </p>
              )}
            </div>
          </div>
          {error && <FieldError id={errorId}>{error}</FieldError>}
        </div>
      )}
    />
  );
}

export type FormFieldMoneyProps<T extends FieldValues> = BaseFieldProps<T> & {
  /** Shown after the amount, e.g. "USD". */
  currency?: string;
  placeholder?: string;
};

/**
 * An amount kept as the exact decimal string the API expects (`moneyAmount`): never parsed to
 * a float. Spaces and thousands separators typed by the user are removed on blur.
 */
export function FormFieldMoney<T extends FieldValues = FieldValues>({
  name,
  label,
  hint,
  className,
  disabled,
  required,
  currency,
  placeholder = '0.00',
}: FormFieldMoneyProps<T>) {
  const form = useFormContext<T>();
  const error = fieldErrorMessage(form.formState.errors, name);
  return (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => (
        <FormField label={fieldLabel(label, required)} hint={hint} error={error} className={className}>
          {(control) => (
            <div className="relative">
              <Input
                {...control}
                ref={field.ref}
                name={field.name}
                inputMode="decimal"
                autoComplete="off"
                placeholder={placeholder}
                aria-required={required || undefined}
                disabled={disabled ?? field.disabled}
                value={(field.value as string | null | undefined) ?? ''}
                onChange={(event) => field.onChange(event.target.value)}
                onBlur={() => {
                  const value = (field.value as string | null | undefined) ?? '';
                  const cleaned = normalizeAmount(value);
                  if (cleaned !== value) field.onChange(cleaned);
                  field.onBlur();
                }}
                className={cn('tabular-nums', currency && 'pr-14')}
              />
              {currency && (
                <span className="pointer-events-none absolute inset-y-0 right-3 flex items-center text-xs font-medium text-muted-foreground">
                  {currency}
                </span>
              )}
            </div>
          )}
        </FormField>
      )}
    />
  );
}

/** " 1 234.5 " → "1234.5"; "1,234.50" → "1234.50"; anything else is left for zod to judge. String edits only. */
export function normalizeAmount(value: string): string {
  const trimmed = value.trim().replace(/\s+/g, '');
  return /^-?\d{1,3}(,\d{3})+(\.\d+)?$/.test(trimmed) ? trimmed.replaceAll(',', '') : trimmed;
}

/** An optional amount kept as the exact decimal string; empty means "no limit" (null). */
export function OptionalMoneyField<T extends FieldValues>({
  name,
  label,
  currency,
  hint,
}: {
  name: FieldPath<T>;
  label: string;
  currency?: string;
  hint?: string;
}) {
  const form = useFormContext<T>();
  return (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => (
        <FormField label={label} hint={hint} error={fieldErrorMessage(form.formState.errors, name)}>
          {(control) => (
            <div className="relative">
              <Input
                {...control}
                ref={field.ref}
                inputMode="decimal"
                autoComplete="off"
                placeholder="No limit"
                value={(field.value as string | null | undefined) ?? ''}
                onChange={(event) =>
                  field.onChange(event.target.value.trim() === '' ? null : event.target.value.trim().replace(/,/g, ''))
                }
                onBlur={field.onBlur}
                className="pr-14 tabular-nums"
              />
              {currency && (
                <span className="pointer-events-none absolute inset-y-0 right-3 flex items-center text-xs font-medium text-muted-foreground">
                  {currency}
                </span>
              )}
            </div>
          )}
        </FormField>
      )}
    />
  );
}

/** A set of ids chosen with checkboxes (categories, departments, roles); none chosen means "any". */
export function CheckboxGroupField<T extends FieldValues>({
  name,
  legend,
  options,
  emptyText = 'Any',
}: {
  name: FieldPath<T>;
  legend: string;
  options: readonly { value: string; label: string }[];
  emptyText?: string;
}) {
  const form = useFormContext<T>();
  const error = fieldErrorMessage(form.formState.errors, name);
  return (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => {
        const chosen = ((field.value as string[] | undefined) ?? []).slice();
        return (
          <fieldset className="flex min-w-0 flex-col gap-1.5">
            <legend className="mb-1 text-sm font-medium">
              {legend}{' '}
              <span className="font-normal text-muted-foreground">
                ({chosen.length === 0 ? emptyText : `${chosen.length} chosen`})
              </span>
            </legend>
            <div className="grid max-h-40 grid-cols-1 gap-1 overflow-y-auto rounded-md border p-2 sm:grid-cols-2">
              {options.length === 0 && <p className="text-xs text-muted-foreground">None available</p>}
              {options.map((option) => {
                const id = `${name}-${option.value}`;
                return (
                  <div key={option.value} className="flex items-center gap-2 text-sm">
                    <Checkbox
                      id={id}
                      checked={chosen.includes(option.value)}
                      onCheckedChange={(on) =>
                        field.onChange(on ? [...chosen, option.value] : chosen.filter((v) => v !== option.value))
                      }
                    />
                    <label htmlFor={id} className="cursor-pointer truncate">
                      {option.label}
                    </label>
                  </div>
                );
              })}
            </div>
            {error && (
              <p className="text-xs font-medium text-destructive" role="alert">
                {error}
              </p>
            )}
          </fieldset>
        );
      }}
    />
  );
}

const TRI = { either: null, yes: true, no: false } as const;

/** Over budget: either (null), yes (true), no (false). */
export function TriStateField<T extends FieldValues>({
  name,
  label,
  labels,
}: {
  name: FieldPath<T>;
  label: string;
  labels: Record<keyof typeof TRI, string>;
}) {
  const form = useFormContext<T>();
  return (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => {
        const value = field.value === true ? 'yes' : field.value === false ? 'no' : 'either';
        return (
          <FormField label={label}>
            {(control) => (
              <Select value={value} onValueChange={(next) => field.onChange(TRI[next as keyof typeof TRI])}>
                <SelectTrigger {...control} ref={field.ref}>
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {(Object.keys(TRI) as (keyof typeof TRI)[]).map((k) => (
                    <SelectItem key={k} value={k}>
                      {labels[k]}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            )}
          </FormField>
        );
      }}
    />
  );
}
