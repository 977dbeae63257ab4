import { zodResolver } from '@hookform/resolvers/zod';
import type { ReactNode } from 'react';
import { useForm, useWatch, type FieldErrors } from 'react-hook-form';
import { PASSWORD_MAX_LENGTH } from '@outlay/contracts/constants';
import { MESSAGES } from '@outlay/contracts/errors';
import { FieldError, FormField } from '@/components/form/form-field';
import { PasswordInput } from '@/components/form/password-input';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { firstFormError } from '@/lib/form-errors';
import { canSubmitNewPassword, newPasswordFormSchema, type NewPasswordForm } from '@/lib/password-forms';
import { PasswordStrengthMeter } from '@/components/form/password-strength-meter';

interface NewPasswordFormProps {
  submitLabel: string;
  pendingLabel: string;
  pending: boolean;
  onSubmit: (values: NewPasswordForm) => Promise<void> | void;
  footer?: ReactNode;
}

/** New password + confirmation with show/hide, live strength and the seed's blocking rules. */
export function NewPasswordFormFields({ submitLabel, pendingLabel, pending, onSubmit, footer }: NewPasswordFormProps) {
  const form = useForm({
    resolver: zodResolver(newPasswordFormSchema),
    defaultValues: { newPassword: '', confirmPassword: '' },
  });
  const [newPassword, confirmPassword] = useWatch({ control: form.control, name: ['newPassword', 'confirmPassword'] });
  const mismatch = confirmPassword !== '' && newPassword !== confirmPassword;

  const onInvalid = (errors: FieldErrors) => {
    toast({
      variant: 'destructive',
      title: 'Validation Error',
      description: firstFormError(errors) ?? MESSAGES.allFieldsRequired,
    });
  };

  return (
    <form noValidate onSubmit={form.handleSubmit(onSubmit, onInvalid)} className="flex flex-col gap-4">
      <FormField label="New Password" error={form.formState.errors.newPassword?.message}>
        <PasswordInput
          autoComplete="new-password"
          placeholder="At least 8 characters"
          maxLength={PASSWORD_MAX_LENGTH}
          {...form.register('newPassword')}
        />
      </FormField>
      <PasswordStrengthMeter password={newPassword} />
      <div className="flex flex-col gap-1.5">
        <FormField
          label="Confirm New Password"
          error={mismatch ? undefined : form.formState.errors.confirmPassword?.message}
        >
          <PasswordInput
            autoComplete="new-password"
            placeholder="Re-enter the new password"
            maxLength={PASSWORD_MAX_LENGTH}
            {...form.register('confirmPassword')}
          />
        </FormField>
        {mismatch && <FieldError>{MESSAGES.passwordsDontMatch}</FieldError>}
      </div>
      <Button
        type="submit"
        size="lg"
        className="w-full"
        disabled={pending || !canSubmitNewPassword(newPassword, confirmPassword)}
      >
        {pending ? pendingLabel : submitLabel}
      </Button>
      {footer}
    </form>
  );
}
