import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { FormProvider } from 'react-hook-form';
import { reauthInput } from '@outlay/contracts/auth';
import { STEP_UP_WINDOW_SECONDS } from '@outlay/contracts/constants';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { apiJson } from '@/lib/api-client';
import { isApiError, messageOf } from '@/lib/api-error';
import { FormServerError } from './form-dialog';
import { FormField } from './form-field';
import { PasswordInput } from './password-input';
import { useZodForm } from './use-zod-form';

/** The API's refusal of a sensitive action without a recent password confirmation (docs/product.md §2.10). */
export function isReauthRequired(error: unknown): boolean {
  return isApiError(error) && error.status === 403 && error.code === 'reauth_required';
}

/** Opens the password prompt; resolves true once the password was confirmed, false if cancelled. */
export type RequestReauth = () => Promise<boolean>;

/**
 * Wraps a mutation function: when it fails with 403 `reauth_required`, asks for the password
 * (via `requestReauth`) and, once confirmed, calls it again — once. A cancelled prompt or any
 * other error rejects with the original error.
 */
export function withStepUp<A extends unknown[], R>(
  fn: (...args: A) => Promise<R>,
  requestReauth: RequestReauth,
): (...args: A) => Promise<R> {
  return async (...args: A) => {
    try {
      return await fn(...args);
    } catch (error) {
      if (!isReauthRequired(error)) throw error;
      if (!(await requestReauth())) throw error;
      return fn(...args);
    }
  };
}

/** `POST /api/auth/reauth {password}`: restarts the session's step-up window. */
export function reauthenticate(password: string) {
  return apiJson<{ message: string; reauthUntil: string }>('POST', '/api/auth/reauth', { password });
}

export interface ReauthDialogProps {
  open: boolean;
  /** The password was confirmed by the server. */
  onConfirmed: () => void;
  onCancel: () => void;
  description?: ReactNode;
}

/** Asks for the current password and confirms it with the server. */
export function ReauthDialog({ open, onConfirmed, onCancel, description }: ReauthDialogProps) {
  const form = useZodForm(reauthInput, { password: '' });
  const [serverError, setServerError] = useState<string | null>(null);
  const pending = form.formState.isSubmitting;
  const minutes = Math.round(STEP_UP_WINDOW_SECONDS / 60);

  const close = () => {
    if (pending) return;
    form.reset();
    setServerError(null);
    onCancel();
  };

  const submit = form.handleSubmit(async ({ password }) => {
    setServerError(null);
    try {
      await reauthenticate(password);
    } catch (error) {
      setServerError(messageOf(error, 'Could not confirm your password.'));
      form.setFocus('password');
      return;
    }
    form.reset();
    onConfirmed();
  });

  return (
    <Dialog open={open} onOpenChange={(next) => (next ? undefined : close())}>
      <DialogContent>
        <FormProvider {...form}>
          <form
            noValidate
            onSubmit={(event) => {
              // The dialog is portalled, but React bubbles its submit to the component tree around
              // it: an edit form that opened this prompt would be saved as well.
              event.stopPropagation();
              void submit(event);
            }}
            className="flex flex-col gap-4"
          >
            <DialogHeader>
              <DialogTitle>Confirm your password</DialogTitle>
              <DialogDescription>
                {description ??
                  `This action needs a recent password confirmation. You will not be asked again for ${minutes} minutes.`}
              </DialogDescription>
            </DialogHeader>
            <FormServerError error={serverError} />
            <FormField label="Password" error={form.formState.errors.password?.message}>
              <PasswordInput autoComplete="current-password" autoFocus {...form.register('password')} />
            </FormField>
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <Button variant="outline" onClick={close} disabled={pending}>
                Cancel
              </Button>
              <Button type="submit" disabled={pending}>
                {pending ? 'Confirming…' : 'Confirm'}
              </Button>
            </div>
          </form>
        </FormProvider>
      </DialogContent>
    </Dialog>
  );
}

export interface StepUp {
  /** Wrap a mutation function so a `reauth_required` refusal asks for the password and retries once. */
  withStepUp: <A extends unknown[], R>(fn: (...args: A) => Promise<R>) => (...args: A) => Promise<R>;
  /** Open the prompt directly (e.g. before a batch of sensitive calls). */
  requestReauth: RequestReauth;
  /** The prompt; render it once in the component that uses the hook. */
  dialog: ReactNode;
}

/**
 * Step-up for sensitive mutations:
 *   const stepUp = useStepUp();
 *   const reset = useMutation({ mutationFn: stepUp.withStepUp(resetPassword) });
 *   return <>…{stepUp.dialog}</>;
 * Concurrent refusals share one prompt.
 */
export function useStepUp(): StepUp {
  const [open, setOpen] = useState(false);
  const waiting = useRef<{ promise: Promise<boolean>; resolve: (ok: boolean) => void } | null>(null);

  const requestReauth = useCallback<RequestReauth>(() => {
    if (waiting.current) return waiting.current.promise;
    let resolve: (ok: boolean) => void = () => {};
    const promise = new Promise<boolean>((r) => (resolve = r));
    waiting.current = { promise, resolve };
    setOpen(true);
    return promise;
  }, []);

  const finish = useCallback((ok: boolean) => {
    const current = waiting.current;
    waiting.current = null;
    setOpen(false);
    current?.resolve(ok);
  }, []);

  // Unmounted while waiting: the wrapped call fails with its original error instead of hanging.
  useEffect(() => () => waiting.current?.resolve(false), []);

  const wrap = useCallback(
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) => withStepUp(fn, requestReauth),
    [requestReauth],
  );

  return {
    withStepUp: wrap,
    requestReauth,
    dialog: <ReauthDialog open={open} onConfirmed={() => finish(true)} onCancel={() => finish(false)} />,
  };
}
