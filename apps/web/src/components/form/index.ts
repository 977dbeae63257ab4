/**
 * Form layer: react-hook-form validated by the contracts' zod schemas.
 *
 *   const form = useZodForm(createVendorInput, { name: '', currency: 'USD', status: 'pending' });
 *   <FormDialog open={open} onOpenChange={setOpen} title="New vendor" form={form}
 *     onSubmit={(values) => createVendor.mutateAsync(values)}>          // throw → message shown inline
 *     <FormFieldText name="name" label="Name" required />
 *     <FormFieldSelect name="status" label="Status" options={STATUS_OPTIONS} />
 *     <FormFieldMoney name="creditLimit" label="Credit limit" currency="USD" />
 *   </FormDialog>
 *
 * Sensitive actions: `const stepUp = useStepUp()`, `mutationFn: stepUp.withStepUp(fn)` and
 * render `{stepUp.dialog}`; a 403 `reauth_required` asks for the password and retries once.
 */
export { useZodForm, applyServerFieldErrors, type ZodForm, type FormSchema } from './use-zod-form';
export {
  FormFieldText,
  FormFieldTextarea,
  FormFieldSelect,
  FormFieldCheckbox,
  FormFieldMoney,
  normalizeAmount,
  fieldErrorMessage,
  OptionalMoneyField,
  CheckboxGroupField,
  TriStateField,
  type SelectOption,
  type FormFieldTextProps,
  type FormFieldTextareaProps,
  type FormFieldSelectProps,
  type FormFieldCheckboxProps,
  type FormFieldMoneyProps,
} from './fields';
export { SelectField, TextField } from './plain-fields';
export {
  FormDialog,
  Form,
  FormServerError,
  VersionConflictAlert,
  type FormDialogProps,
  type FormProps,
} from './form-dialog';
export { useVersionedEdit, type VersionedEdit } from './use-versioned-edit';
export { ConfirmDialog, type ConfirmDialogProps } from './confirm-dialog';
export {
  ReauthDialog,
  useStepUp,
  withStepUp,
  isReauthRequired,
  reauthenticate,
  type StepUp,
  type RequestReauth,
  type ReauthDialogProps,
} from './step-up';
export { Checkbox, type CheckboxProps } from './checkbox';
export { FormField, FieldError } from './form-field';
export { PasswordInput } from './password-input';
