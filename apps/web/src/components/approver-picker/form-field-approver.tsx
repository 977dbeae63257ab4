import type { ReactNode } from 'react';
import { Controller, useFormContext, type FieldPath, type FieldValues } from 'react-hook-form';
import { fieldErrorMessage, FormField } from '@/components/form';
import { ApproverPicker } from './approver-picker';

/** A person field (id) of a form built with useZodForm, searched through approver-options. */
export function FormFieldApprover<T extends FieldValues>({
  name,
  label,
  hint,
  required,
  organizationId,
  exclude,
  valueLabel,
  placeholder,
}: {
  name: FieldPath<T>;
  label: ReactNode;
  hint?: ReactNode;
  required?: boolean;
  organizationId?: string | null;
  exclude?: readonly string[];
  valueLabel?: string | null;
  placeholder?: string;
}) {
  const form = useFormContext<T>();
  const error = fieldErrorMessage(form.formState.errors, name);
  return (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => (
        <FormField
          label={
            <>
              {label}
              {required && <span aria-hidden="true"> *</span>}
            </>
          }
          hint={hint}
          error={error}
        >
          {(control) => (
            <ApproverPicker
              {...control}
              aria-required={required}
              value={(field.value as string | null | undefined) ?? null}
              valueLabel={valueLabel ?? null}
              onChange={(id) => field.onChange(id ?? (required ? '' : null))}
              organizationId={organizationId ?? null}
              exclude={exclude}
              placeholder={placeholder}
            />
          )}
        </FormField>
      )}
    />
  );
}
