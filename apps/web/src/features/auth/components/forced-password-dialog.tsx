import { useQueryClient } from '@tanstack/react-query';
import { ShieldAlert } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { navigate } from 'wouter/use-browser-location';
import { REDIRECT_AFTER_PASSWORD_CHANGE_MS } from '@outlay/contracts/constants';
import { Alert } from '@/components/ui/alert';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { toast } from '@/components/ui/use-toast';
import { messageOf } from '@/lib/api-error';
import { clearTokens } from '@/lib/auth-storage';
import { needsPasswordChange, useAuth } from '@/lib/current-user';
import { useChangePasswordMutation } from '../api/change-password';
import type { NewPasswordForm } from '@/lib/password-forms';
import { NewPasswordFormFields } from './new-password-form';

const prevent = (event: Event) => event.preventDefault();

/** docs/product.md §6.1, §6.3: a blocking prompt over any page while the user must change the password. */
export function ForcedPasswordDialog() {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const mutation = useChangePasswordMutation();
  const [done, setDone] = useState(false);
  const timer = useRef<number | undefined>(undefined);

  useEffect(() => () => window.clearTimeout(timer.current), []);

  const open = done || (user !== null && needsPasswordChange(user));
  if (!open) return null;

  const onSubmit = async (values: NewPasswordForm) => {
    try {
      await mutation.mutateAsync({ newPassword: values.newPassword });
      // The dialog stays up on `done` while the session underneath it is already gone.
      setDone(true);
      clearTokens();
      queryClient.clear();
      toast({ variant: 'success', title: 'Success', description: 'Password changed successfully!' });
      timer.current = window.setTimeout(() => {
        setDone(false);
        navigate('/auth');
      }, REDIRECT_AFTER_PASSWORD_CHANGE_MS);
    } catch (error) {
      toast({ variant: 'destructive', title: 'Error', description: messageOf(error, 'Failed to change password') });
    }
  };

  return (
    <Dialog open modal>
      <DialogContent
        hideClose
        onEscapeKeyDown={prevent}
        onPointerDownOutside={prevent}
        onInteractOutside={prevent}
        data-testid="forced-password-dialog"
      >
        <DialogHeader>
          <span className="mb-1 inline-flex size-10 items-center justify-center rounded-lg bg-amber-100 text-amber-800">
            <ShieldAlert className="size-5" aria-hidden="true" />
          </span>
          <DialogTitle>Password Change Required</DialogTitle>
          <DialogDescription>
            For your security, set a new password before you continue. You will then sign in again with it.
          </DialogDescription>
        </DialogHeader>
        {done ? (
          <Alert variant="success" role="status">
            <p>Password changed. Taking you to the sign-in screen…</p>
          </Alert>
        ) : (
          <NewPasswordFormFields
            submitLabel="Change Password"
            pendingLabel="Setting Password..."
            pending={mutation.isPending}
            onSubmit={onSubmit}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}
