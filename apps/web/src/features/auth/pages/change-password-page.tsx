import { ArrowLeft, Info, KeyRound } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, Redirect, useSearch } from 'wouter';
import { navigate } from 'wouter/use-browser-location';
import { REDIRECT_AFTER_PASSWORD_CHANGE_MS } from '@outlay/contracts/constants';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { toast } from '@/components/ui/use-toast';
import { messageOf } from '@/lib/api-error';
import { useChangePasswordMutation } from '../api/change-password';
import { AuthLayout } from '@/components/auth-layout';
import { NewPasswordFormFields } from '../components/new-password-form';
import { clearPasswordChangeToken, readPasswordChangeToken } from '../utils/password-change-token';
import type { NewPasswordForm } from '@/lib/password-forms';

/** /change-password: first-time 'Set Your Password' or normal 'Change Password' (docs/product.md §6.1). */
export default function ChangePasswordPage() {
  const params = new URLSearchParams(useSearch());
  const userId = params.get('userId') ?? '';
  const firstTime = params.get('firstTime') === 'true';
  const mutation = useChangePasswordMutation();
  const [done, setDone] = useState(false);
  const timer = useRef<number | undefined>(undefined);

  useEffect(() => () => window.clearTimeout(timer.current), []);

  if (!userId && !firstTime) return <Redirect to="/auth" replace />;

  const onSubmit = async (values: NewPasswordForm) => {
    const passwordChangeToken = userId ? readPasswordChangeToken(userId) : undefined;
    try {
      await mutation.mutateAsync({
        newPassword: values.newPassword,
        confirmPassword: values.confirmPassword,
        ...(userId ? { userId } : {}),
        ...(passwordChangeToken ? { passwordChangeToken } : {}),
      });
      clearPasswordChangeToken();
      setDone(true);
      toast({
        variant: 'success',
        title: 'Success',
        description: firstTime
          ? 'Password set successfully! You can now log in with your new password.'
          : 'Password changed successfully!',
      });
      timer.current = window.setTimeout(() => navigate('/auth'), REDIRECT_AFTER_PASSWORD_CHANGE_MS);
    } catch (error) {
      toast({ variant: 'destructive', title: 'Error', description: messageOf(error, 'Failed to change password') });
    }
  };

  return (
    <AuthLayout>
      <Card className="shadow-md">
        <CardHeader className="pb-2">
          <span className="mb-2 inline-flex size-10 items-center justify-center rounded-lg bg-blue-100 text-blue-800">
            <KeyRound className="size-5" aria-hidden="true" />
          </span>
          <h1 className="text-2xl font-semibold tracking-tight">
            {firstTime ? 'Set Your Password' : 'Change Password'}
          </h1>
          <CardDescription>
            {firstTime
              ? 'Welcome! Please create a secure password for your account.'
              : 'Enter your new password below.'}
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4 pt-4">
          {firstTime && (
            <Alert variant="info">
              <Info aria-hidden="true" />
              <p>This is your first time logging in. Please set a secure password to continue.</p>
            </Alert>
          )}
          {done ? (
            <Alert variant="success" role="status">
              <p>Your password has been saved. Taking you to the sign-in screen…</p>
            </Alert>
          ) : (
            <NewPasswordFormFields
              submitLabel={firstTime ? 'Set Password' : 'Change Password'}
              pendingLabel="Setting Password..."
              pending={mutation.isPending}
              onSubmit={onSubmit}
            />
          )}
          <Button asChild variant="ghost" className="self-center">
            <Link href="/auth">
              <ArrowLeft aria-hidden="true" /> Back to Login
            </Link>
          </Button>
        </CardContent>
      </Card>
    </AuthLayout>
  );
}
