import { Check, Copy, KeyRound } from 'lucide-react';
import { useState } from 'react';
import type { ApproveRegistrationResponse } from '@outlay/contracts/registration-requests';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { formatDateTime, roleLabel } from '@/lib/format';

/**
 * The one and only display of a new user's temporary password. It is not stored anywhere in
 * the browser: closing the dialog forgets it, and the server never shows it again.
 */
export function RegistrationTempPasswordDialog({
  result,
  onClose,
}: {
  result: ApproveRegistrationResponse;
  onClose: () => void;
}) {
  const [copied, setCopied] = useState<'ok' | 'failed' | null>(null);
  const { user, temporaryPassword } = result;

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(temporaryPassword);
      setCopied('ok');
    } catch {
      setCopied('failed');
    }
  };

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent
        data-testid="temporary-password-dialog"
        // A stray click outside must not throw the password away.
        onInteractOutside={(event) => event.preventDefault()}
      >
        <DialogHeader>
          <DialogTitle>User created</DialogTitle>
          <DialogDescription>
            {user.firstName} {user.lastName} can now sign in as{' '}
            <strong className="text-foreground">{user.username}</strong> ({user.email}) with the temporary password
            below, and will be asked to set their own.
          </DialogDescription>
        </DialogHeader>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-muted-foreground">Username</dt>
          <dd className="font-mono" data-testid="new-username">
            {user.username}
          </dd>
          <dt className="text-muted-foreground">Role</dt>
          <dd>{roleLabel(user.role)}</dd>
          <dt className="text-muted-foreground">Expires</dt>
          <dd>{formatDateTime(user.tempPasswordExpiresAt)}</dd>
        </dl>
        <div className="flex flex-col gap-2">
          <span className="text-sm font-medium" id="temp-password-label">
            Temporary password
          </span>
          <div className="flex items-stretch gap-2">
            <code
              aria-labelledby="temp-password-label"
              data-testid="temporary-password"
              className="flex flex-1 items-center gap-2 break-all rounded-md border bg-muted px-3 py-2 font-mono text-base select-all"
            >
              <KeyRound className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
              {temporaryPassword}
            </code>
            <Button type="button" variant="outline" onClick={() => void copy()}>
              {copied === 'ok' ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
              {copied === 'ok' ? 'Copied' : 'Copy'}
            </Button>
          </div>
          <p aria-live="polite" className="min-h-5 text-xs text-muted-foreground">
            {copied === 'ok'
              ? 'Copied to the clipboard.'
              : copied === 'failed'
                ? 'Could not copy: select the password and copy it by hand.'
                : ''}
          </p>
        </div>
        <Alert variant="warning">
          <span>
            <strong>Shown once.</strong> This password is not stored in a readable form and will not be shown again.
            Give it to {user.firstName} through a secure channel; it works for 72 hours and only to set a new password.
          </span>
        </Alert>
        <div className="flex justify-end">
          <Button onClick={onClose}>Done</Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
