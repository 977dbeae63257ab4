import { z } from 'zod';
import { newPasswordSchema } from '@outlay/contracts/auth';
import { MESSAGES } from '@outlay/contracts/errors';

/** New password + confirmation, as on the standalone screen and the forced dialog (docs/product.md §6.4). */
export const newPasswordFormSchema = z
  .object({
    newPassword: newPasswordSchema,
    confirmPassword: z.string().min(1, MESSAGES.allFieldsRequired),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    message: MESSAGES.passwordsDontMatch,
    path: ['confirmPassword'],
  });
export type NewPasswordForm = z.infer<typeof newPasswordFormSchema>;

/** The profile's Security tab words its messages differently (docs/product.md §6.4). */
export const profilePasswordFormSchema = z
  .object({
    newPassword: z.string().min(1, MESSAGES.newPasswordFieldsRequired).pipe(newPasswordSchema),
    confirmPassword: z.string().min(1, MESSAGES.newPasswordFieldsRequired),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    message: MESSAGES.newPasswordsDontMatch,
    path: ['confirmPassword'],
  });
export type ProfilePasswordForm = z.infer<typeof profilePasswordFormSchema>;

/** docs/product.md §6.1: submit stays disabled while a field is empty, they differ, or it is under 8 characters. */
export function canSubmitNewPassword(newPassword: string, confirmPassword: string, minLength = 8) {
  return (
    newPassword !== '' && confirmPassword !== '' && newPassword === confirmPassword && newPassword.length >= minLength
  );
}
