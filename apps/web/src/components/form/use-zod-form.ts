import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, type DefaultValues, type FieldValues, type UseFormProps, type UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { isApiError } from '@/lib/api-error';

/** A zod object schema whose input is a form's field values. */
export type FormSchema = z.ZodType<FieldValues, FieldValues>;

/** The form of a contract schema: fields typed by the schema's input, submit values by its output. */
export type ZodForm<S extends FormSchema> = UseFormReturn<z.input<S>, unknown, z.output<S>>;

/**
 * react-hook-form validated by a contract schema (the same zod schema the API checks):
 *   const form = useZodForm(createVendorInput, { name: '', currency: 'USD' });
 * Validation runs on submit, then again on every change of a field that failed.
 */
export function useZodForm<S extends FormSchema>(
  schema: S,
  defaultValues?: DefaultValues<z.input<S>>,
  options: Omit<UseFormProps<z.input<S>, unknown, z.output<S>>, 'resolver' | 'defaultValues'> = {},
): ZodForm<S> {
  return useForm<z.input<S>, unknown, z.output<S>>({
    // The resolver's types are derived from the schema; here the schema is generic.
    resolver: zodResolver(schema as never) as never,
    defaultValues,
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    shouldFocusError: true,
    ...options,
  });
}

interface FieldIssue {
  path: string;
  message: string;
}

function isFieldIssue(value: unknown): value is FieldIssue {
  return (
    Boolean(value) &&
    typeof (value as FieldIssue).path === 'string' &&
    typeof (value as FieldIssue).message === 'string'
  );
}

/**
 * Puts the API's validation details (`details: [{ path, message }]` on a 400) on the matching
 * fields. Returns true when at least one field received a message.
 */
export function applyServerFieldErrors<T extends FieldValues>(
  form: UseFormReturn<T, unknown, unknown>,
  error: unknown,
): boolean {
  if (!isApiError(error) || !Array.isArray(error.details)) return false;
  const known = new Set(Object.keys(form.getValues() ?? {}));
  let applied = false;
  for (const issue of error.details.filter(isFieldIssue)) {
    const root = issue.path.split('.')[0] ?? '';
    if (!issue.path || !known.has(root)) continue;
    form.setError(issue.path as never, { type: 'server', message: issue.message }, { shouldFocus: !applied });
    applied = true;
  }
  return applied;
}
