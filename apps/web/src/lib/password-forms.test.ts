import { describe, expect, it } from 'vitest';
import { canSubmitNewPassword, newPasswordFormSchema, profilePasswordFormSchema } from '@/lib/password-forms';

const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? [] : result.error!.issues.map((i) => i.message);

describe('new password (standalone screen and forced dialog)', () => {
  it('requires all fields', () => {
    expect(messages(newPasswordFormSchema.safeParse({ newPassword: '', confirmPassword: '' }))).toContain(
      'All fields are required',
    );
  });
  it('requires 8 characters', () => {
    expect(messages(newPasswordFormSchema.safeParse({ newPassword: 'Ab1!', confirmPassword: 'Ab1!' }))).toEqual([
      'Password must be at least 8 characters long',
    ]);
  });
  it('requires the confirmation to match', () => {
    expect(
      messages(newPasswordFormSchema.safeParse({ newPassword: 'Abcdefg1!', confirmPassword: 'Abcdefg1?' })),
    ).toEqual(["Passwords don't match"]);
  });
  it('accepts a weak but long enough password: the meter is advisory', () => {
    expect(newPasswordFormSchema.safeParse({ newPassword: 'aaaaaaaa', confirmPassword: 'aaaaaaaa' }).success).toBe(
      true,
    );
  });
  it('keeps submit disabled while empty, different or short', () => {
    expect(canSubmitNewPassword('', '')).toBe(false);
    expect(canSubmitNewPassword('abcdefgh', 'abcdefgi')).toBe(false);
    expect(canSubmitNewPassword('abcdefg', 'abcdefg')).toBe(false);
    expect(canSubmitNewPassword('abcdefgh', 'abcdefgh')).toBe(true);
  });
});

describe('profile password form', () => {
  it('words its messages as the seed says', () => {
    expect(messages(profilePasswordFormSchema.safeParse({ newPassword: '', confirmPassword: '' }))).toContain(
      'New password fields are required',
    );
    expect(messages(profilePasswordFormSchema.safeParse({ newPassword: 'Abcdefg1!', confirmPassword: 'x' }))).toEqual([
      "New passwords don't match",
    ]);
    expect(messages(profilePasswordFormSchema.safeParse({ newPassword: 'short', confirmPassword: 'short' }))).toEqual([
      'Password must be at least 8 characters long',
    ]);
  });
});
