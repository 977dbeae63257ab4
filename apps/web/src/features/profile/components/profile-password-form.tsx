import { zodResolver } from '@hookform/resolvers/zod';
import { Info } from 'lucide-react';
import { useForm, useWatch, type FieldErrors } from 'react-hook-form';
import { PASSWORD_MAX_LENGTH } from '@outlay/contracts/constants';
import { MESSAGES } from '@outlay/contracts/errors';
import type { Profile } from '@outlay/contracts/auth';
import { FieldError, FormField } from '@/components/form/form-field';
import { PasswordInput } from '@/components/form/password-input';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { toast } from '@/components/ui/use-toast';
import { messageOf } from '@/lib/api-error';
import { firstFormError } from '@/lib/form-errors';
import { needsPasswordChange } from '@/lib/current-user';
import { useChangePasswordMutation } from '@/features/auth';
import { PasswordStrengthMeter } from '@/components/form/password-strength-meter';
import { profilePasswordFormSchema, type ProfilePasswordForm } from '@/lib/password-forms';

export function ProfilePasswordForm({ profile }: { profile: Profile }) {
  const required = needsPasswordChange(profile);
  const mutation = useChangePasswordMutation();
  const form = useForm<ProfilePasswordForm>({
    resolver: zodResolver(profilePasswordFormSchema),
    defaultValues: { newPassword: '', confirmPassword: '' },
  });
  const [newPassword, confirmPassword] = useWatch({ control: form.control, name: ['newPassword', 'confirmPassword'] });
  const errors = form.formState.errors;

  const onValid = async (values: ProfilePasswordForm) => {
    try {
      // docs/product.md §6.6: when a change is required only the new password is sent.
      await mutation.mutateAsync(
        required
          ? { newPassword: values.newPassword }
          : { newPassword: values.newPassword, confirmPassword: values.confirmPassword },
      );
      form.reset({ newPassword: '', confirmPassword: '' });
      toast({ variant: 'success', title: 'Success', description: 'Password changed successfully!' });
    } catch (error) {
      toast({ variant: 'destructive', title: 'Error', description: messageOf(error, 'Failed to change password') });
    }
  };

  const onInvalid = (fieldErrors: FieldErrors) => {
    toast({
      variant: 'destructive',
      title: 'Validation Error',
      description: firstFormError(fieldErrors) ?? MESSAGES.newPasswordFieldsRequired,
    });
  };

  return (
    <Card>
      <CardHeader>
        <div className="flex flex-wrap items-center gap-2">
          <CardTitle>Change Password</CardTitle>
          {required && <Badge variant="warning">Password Change Required</Badge>}
        </div>
        <CardDescription>
          {required
            ? 'You need to set a new password for your account'
            : 'Update your password to keep your account secure'}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form
          noValidate
          onSubmit={form.handleSubmit(onValid, onInvalid)}
          className="flex max-w-xl flex-col gap-4"
          aria-label="Change Password"
        >
          <FormField label="New Password *" error={errors.newPassword?.message}>
            <PasswordInput
              autoComplete="new-password"
              placeholder="Enter new password (min 8 characters)"
              maxLength={PASSWORD_MAX_LENGTH}
              {...form.register('newPassword')}
            />
          </FormField>
          <PasswordStrengthMeter password={newPassword} />
          <FormField label="Confirm New Password *" error={errors.confirmPassword?.message}>
            <PasswordInput
              autoComplete="new-password"
              placeholder="Confirm new password"
              maxLength={PASSWORD_MAX_LENGTH}
              {...form.register('confirmPassword')}
            />
          </FormField>
          {!errors.confirmPassword && confirmPassword !== '' && newPassword !== confirmPassword && (
            <FieldError>{MESSAGES.newPasswordsDontMatch}</FieldError>
          )}
          <p className="flex items-start gap-2 rounded-md bg-muted p-3 text-xs text-muted-foreground">
            <Info className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            You don't need your current password here because you are already signed in. Other devices signed in to your
            account will be signed out.
          </p>
          <div>
            <Button type="submit" disabled={mutation.isPending}>
              {mutation.isPending ? 'Changing Password...' : 'Change Password'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
