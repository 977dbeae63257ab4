import { Controller, useFormContext, type FieldPath, type FieldValues } from 'react-hook-form';
import { Checkbox, FormField } from '@/components/form';
import { Input } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';

function errorAt(errors: unknown, name: string): string | undefined {
  let node: unknown = errors;
  for (const part of name.split('.')) node = node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
  const message = node && typeof node === 'object' ? (node as { message?: unknown }).message : undefined;
  return typeof message === 'string' ? message : undefined;
}

/** An optional amount kept as the exact decimal string; empty means "no limit" (null). */
export function OptionalMoneyField<T extends FieldValues>({ name, label, currency, hint }: { name: FieldPath<T>; label: string; currency?: string; hint?: string }) {
  const form = useFormContext<T>();
  return (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => (
        <FormField label={label} hint={hint} error={errorAt(form.formState.errors, name)}>
          {(control) => (
            <div className="relative">
              <Input
                {...control}
                ref={field.ref}
                inputMode="decimal"
                autoComplete="off"
                placeholder="No limit"
                value={(field.value as string | null | undefined) ?? ''}
                onChange={(event) => field.onChange(event.target.value.trim() === '' ? null : event.target.value.trim().replace(/,/g, ''))}
                onBlur={field.onBlur}
                className="pr-14 tabular-nums"
              />
              {currency && <span className="pointer-events-none absolute inset-y-0 right-3 flex items-center text-xs font-medium text-muted-foreground">{currency}</span>}
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
  const error = errorAt(form.formState.errors, name);
  return (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => {
        const chosen = ((field.value as string[] | undefined) ?? []).slice();
        return (
          <fieldset className="flex min-w-0 flex-col gap-1.5">
            <legend className="mb-1 text-sm font-medium">
              {legend} <span className="font-normal text-muted-foreground">({chosen.length === 0 ? emptyText : `${chosen.length} chosen`})</span>
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
                      onCheckedChange={(on) => field.onChange(on ? [...chosen, option.value] : chosen.filter((v) => v !== option.value))}
                    />
                    <label htmlFor={id} className="cursor-pointer truncate">
                      {option.label}
                    </label>
                  </div>
                );
              })}
            </div>
            {error && <p className="text-xs font-medium text-destructive" role="alert">{error}</p>}
          </fieldset>
        );
      }}
    />
  );
}

const TRI = { either: null, yes: true, no: false } as const;

/** Over budget: either (null), yes (true), no (false). */
export function TriStateField<T extends FieldValues>({ name, label, labels }: { name: FieldPath<T>; label: string; labels: Record<keyof typeof TRI, string> }) {
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
