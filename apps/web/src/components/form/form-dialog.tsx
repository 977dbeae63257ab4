import { RotateCw, TriangleAlert } from 'lucide-react';
import { useState, type FormEvent, type ReactNode } from 'react';
import { FormProvider, type FieldValues, type UseFormReturn } from 'react-hook-form';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { messageOf } from '@/lib/api-error';
import { isVersionConflict } from '@/lib/versions';
import { cn } from '@/lib/utils';
import { applyServerFieldErrors } from './use-zod-form';

/** The message a failed save shows inside its form: the server's words. */
export function FormServerError({ error, id }: { error: string | null | undefined; id?: string }) {
  if (!error) return null;
  return (
    <Alert variant="danger" role="alert" id={id}>
      <TriangleAlert aria-hidden="true" />
      <span>{error}</span>
    </Alert>
  );
}

/**
 * Someone else saved the record after this form loaded it: the save was refused rather than
 * overwriting their change. The typed values stay until the user reloads.
 */
export function VersionConflictAlert({ message, onReload }: { message: string; onReload: () => Promise<unknown> }) {
  const [reloading, setReloading] = useState(false);
  return (
    <Alert variant="danger" role="alert">
      <TriangleAlert aria-hidden="true" />
      <div className="flex flex-1 flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
        <span>{message}</span>
        <Button
          type="button"
          size="sm"
          variant="outline"
          disabled={reloading}
          onClick={() => {
            setReloading(true);
            void onReload().finally(() => setReloading(false));
          }}
        >
          <RotateCw aria-hidden="true" />
          {reloading ? 'Reloading…' : 'Reload'}
        </Button>
      </div>
    </Alert>
  );
}

interface FormSubmitState {
  serverError: string | null;
  setServerError: (error: string | null) => void;
  /** The last save was refused because the record changed since the form loaded it (412). */
  conflict: boolean;
  submit: (event?: FormEvent) => Promise<void>;
}

/**
 * Wires a form's submit: validates with the schema (focusing the first invalid field), calls
 * `onSubmit`, and turns a failure into a server message (plus field messages when the API
 * named fields). Returns true from `submit` only when the save succeeded.
 */
function useFormSubmit<TIn extends FieldValues, TOut>(
  form: UseFormReturn<TIn, unknown, TOut>,
  onSubmit: (values: TOut) => unknown,
  onSuccess?: () => void,
  fallbackError = 'Could not save. Try again.',
): FormSubmitState {
  const [serverError, setError] = useState<string | null>(null);
  const [conflict, setConflict] = useState(false);
  const setServerError = (error: string | null) => {
    setError(error);
    setConflict(false);
  };
  const submit = form.handleSubmit(async (values) => {
    setServerError(null);
    try {
      await onSubmit(values);
    } catch (error) {
      applyServerFieldErrors(form, error);
      setError(messageOf(error, fallbackError));
      setConflict(isVersionConflict(error));
      return;
    }
    onSuccess?.();
  });
  return { serverError, setServerError, conflict, submit };
}

export interface FormProps<TIn extends FieldValues, TOut> {
  form: UseFormReturn<TIn, unknown, TOut>;
  /** Save; throw (e.g. the api client's error) to show the server message in the form. */
  onSubmit: (values: TOut) => unknown;
  onSuccess?: () => void;
  children: ReactNode;
  className?: string;
  'aria-label'?: string;
  /** As FormDialog's: with it, a save refused because the record changed offers Reload. */
  onReload?: () => Promise<unknown>;
}

/** The failed save's message, or the "changed by someone else" alert with Reload when the form can reload. */
function SaveError<TIn extends FieldValues, TOut>({
  state,
  form,
  onReload,
}: {
  state: FormSubmitState;
  form: UseFormReturn<TIn, unknown, TOut>;
  onReload?: () => Promise<unknown>;
}) {
  if (state.conflict && onReload && state.serverError) {
    return (
      <VersionConflictAlert
        message={state.serverError}
        onReload={async () => {
          await onReload();
          state.setServerError(null);
          form.clearErrors();
        }}
      />
    );
  }
  return <FormServerError error={state.serverError} />;
}

/** A plain (page) form for the fields of this folder: context, submit wiring and server error. */
export function Form<TIn extends FieldValues, TOut>({
  form,
  onSubmit,
  onSuccess,
  onReload,
  children,
  className,
  ...rest
}: FormProps<TIn, TOut>) {
  const state = useFormSubmit(form, onSubmit, onSuccess);
  return (
    <FormProvider {...form}>
      <form
        noValidate
        onSubmit={(event) => void state.submit(event)}
        className={cn('flex flex-col gap-4', className)}
        aria-label={rest['aria-label']}
      >
        <SaveError state={state} form={form} onReload={onReload} />
        {children}
      </form>
    </FormProvider>
  );
}

export interface FormDialogProps<TIn extends FieldValues, TOut> {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  form: UseFormReturn<TIn, unknown, TOut>;
  /**
   * Save. Resolve to close the dialog (and reset the form to its defaults); throw to keep it
   * open with the error shown inline (the api client's error carries the server's message).
   */
  onSubmit: (values: TOut) => unknown;
  children: ReactNode;
  submitLabel?: string;
  pendingLabel?: string;
  cancelLabel?: string;
  /** A red Save button, for forms that remove or block something. */
  destructive?: boolean;
  /** Wider dialog for two-column forms. */
  size?: 'default' | 'lg';
  /** Keep the form values after a successful save (default: reset to defaults). */
  keepValuesOnClose?: boolean;
  /**
   * Loads the latest copy of the record into the form (see useVersionedEdit). With it, a save
   * refused because someone else changed the record offers a Reload button.
   */
  onReload?: () => Promise<unknown>;
}

/**
 * A create/edit dialog: title, description, the fields, Cancel and Save. Save validates with
 * the form's schema and focuses the first invalid field; a failed save shows the server's
 * message above the fields and leaves the dialog open.
 */
export function FormDialog<TIn extends FieldValues, TOut>({
  open,
  onOpenChange,
  title,
  description,
  form,
  onSubmit,
  children,
  submitLabel = 'Save',
  pendingLabel = 'Saving…',
  cancelLabel = 'Cancel',
  destructive = false,
  size = 'default',
  keepValuesOnClose = false,
  onReload,
}: FormDialogProps<TIn, TOut>) {
  const state = useFormSubmit(form, onSubmit, () => {
    onOpenChange(false);
    if (!keepValuesOnClose) form.reset();
  });
  const { setServerError, submit } = state;
  const pending = form.formState.isSubmitting;

  const change = (next: boolean) => {
    if (pending && !next) return; // Not while saving: the result would land nowhere.
    if (!next) {
      setServerError(null);
      form.clearErrors();
    }
    onOpenChange(next);
  };

  return (
    <Dialog open={open} onOpenChange={change}>
      <DialogContent
        className={cn(size === 'lg' && 'max-w-2xl')}
        {...(description ? {} : { 'aria-describedby': undefined })}
      >
        <FormProvider {...form}>
          <form noValidate onSubmit={(event) => void submit(event)} className="flex flex-col gap-4">
            <DialogHeader>
              <DialogTitle>{title}</DialogTitle>
              {description && <DialogDescription>{description}</DialogDescription>}
            </DialogHeader>
            <SaveError state={state} form={form} onReload={onReload} />
            <div className="flex flex-col gap-4">{children}</div>
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <Button variant="outline" onClick={() => change(false)} disabled={pending}>
                {cancelLabel}
              </Button>
              <Button type="submit" variant={destructive ? 'destructive' : 'default'} disabled={pending}>
                {pending ? pendingLabel : submitLabel}
              </Button>
            </div>
          </form>
        </FormProvider>
      </DialogContent>
    </Dialog>
  );
}
