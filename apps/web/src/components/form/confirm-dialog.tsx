import { useId, useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Textarea } from '@/components/ui/textarea';
import { messageOf } from '@/lib/api-error';
import { FormServerError } from './form-dialog';
import { FieldError, FormField } from './form-field';

export interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  /** Extra content between the description and the buttons (e.g. what will change). */
  children?: ReactNode;
  confirmLabel?: string;
  pendingLabel?: string;
  cancelLabel?: string;
  /** Red confirm button (default true: this dialog is for destructive actions). */
  destructive?: boolean;
  /** Ask for a reason (passed to onConfirm). `true` or the field settings. */
  reason?:
    boolean | { label?: string; required?: boolean; minLength?: number; maxLength?: number; placeholder?: string };
  /**
   * Do it. Resolve to close; throw to keep the dialog open with the server's message.
   * Receives the trimmed reason when one is asked for.
   */
  onConfirm: (reason: string | undefined) => unknown;
}

/** "Block Acme Ltd?" — a confirmation for destructive actions, optionally with a required reason. */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  confirmLabel = 'Confirm',
  pendingLabel = 'Working…',
  cancelLabel = 'Cancel',
  destructive = true,
  reason,
  onConfirm,
}: ConfirmDialogProps) {
  const reasonSettings = reason === true ? {} : reason || null;
  const reasonRequired = reasonSettings ? reasonSettings.required !== false : false;
  const minLength = reasonSettings?.minLength ?? (reasonRequired ? 1 : 0);
  const [text, setText] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const reasonId = useId();

  const change = (next: boolean) => {
    if (pending && !next) return;
    if (!next) {
      setText('');
      setReasonError(null);
      setServerError(null);
    }
    onOpenChange(next);
  };

  const confirm = async () => {
    const trimmed = text.trim();
    if (reasonSettings && trimmed.length < minLength) {
      setReasonError(minLength > 1 ? `Enter a reason of at least ${minLength} characters` : 'Enter a reason');
      document.getElementById(reasonId)?.focus();
      return;
    }
    setReasonError(null);
    setServerError(null);
    setPending(true);
    try {
      await onConfirm(reasonSettings ? trimmed || undefined : undefined);
    } catch (error) {
      setServerError(messageOf(error, 'The action failed. Try again.'));
      setPending(false);
      return;
    }
    setPending(false);
    change(false);
  };

  return (
    <Dialog open={open} onOpenChange={change}>
      <DialogContent role="alertdialog" {...(description ? {} : { 'aria-describedby': undefined })}>
        <form
          noValidate
          className="flex flex-col gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            void confirm();
          }}
        >
          <DialogHeader>
            <DialogTitle>{title}</DialogTitle>
            {description && <DialogDescription>{description}</DialogDescription>}
          </DialogHeader>
          <FormServerError error={serverError} />
          {children}
          {reasonSettings && (
            <FormField
              id={reasonId}
              label={
                <>
                  {reasonSettings.label ?? 'Reason'}
                  {reasonRequired && <span aria-hidden="true"> *</span>}
                </>
              }
            >
              {(control) => (
                <>
                  <Textarea
                    {...control}
                    aria-invalid={reasonError ? true : undefined}
                    aria-describedby={reasonError ? `${reasonId}-reason-error` : undefined}
                    aria-required={reasonRequired || undefined}
                    rows={3}
                    maxLength={reasonSettings.maxLength ?? 500}
                    placeholder={reasonSettings.placeholder}
                    value={text}
                    onChange={(event) => setText(event.target.value)}
                  />
                  {reasonError && <FieldError id={`${reasonId}-reason-error`}>{reasonError}</FieldError>}
                </>
              )}
            </FormField>
          )}
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="outline" onClick={() => change(false)} disabled={pending}>
              {cancelLabel}
            </Button>
            <Button type="submit" variant={destructive ? 'destructive' : 'default'} disabled={pending}>
              {pending ? pendingLabel : confirmLabel}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
