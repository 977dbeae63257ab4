import { describe, expect, it } from 'vitest';
import { loginInput, totpCodeSchema, totpOrRecoveryCode } from '@outlay/contracts/auth';
import { canSubmitNewPassword, newPasswordFormSchema, profilePasswordFormSchema } from './password-forms';
import { sanitizeRecoveryInput, sanitizeTotpInput } from './two-factor-code';

const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? [] : result.error!.issues.map((i) => i.message);

describe('new password (standalone screen and forced dialog)', () => {
  it('requires all fields', () => {
    expect(messages(newPasswordFormSchema.safeParse({ newPassword: '', confirmPassword: '' }))).toContain('All fields are required');
  });
  it('requires 8 characters', () => {
    expect(messages(newPasswordFormSchema.safeParse({ newPassword: 'Ab1!', confirmPassword: 'Ab1!' }))).toEqual([
      'Password must be at least 8 characters long',
    ]);
  });
  it('requires the confirmation to match', () => {
    expect(messages(newPasswordFormSchema.safeParse({ newPassword: 'Abcdefg1!', confirmPassword: 'Abcdefg1?' }))).toEqual([
      "Passwords don't match",
    ]);
  });
  it('accepts a weak but long enough password: the meter is advisory', () => {
    expect(newPasswordFormSchema.safeParse({ newPassword: 'aaaaaaaa', confirmPassword: 'aaaaaaaa' }).success).toBe(true);
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

describe('login', () => {
  it('needs both username and password', () => {
    expect(messages(loginInput.safeParse({ username: 'rita', password: '' }))).toEqual(['Please enter both username and password']);
    expect(messages(loginInput.safeParse({ username: '  ', password: 'x' }))).toEqual(['Please enter both username and password']);
    expect(loginInput.safeParse({ username: 'rita', password: 'x' }).success).toBe(true);
  });
});

describe('two-factor code', () => {
  it('strips non-digits and keeps six characters', () => {
    expect(sanitizeTotpInput('12a 34-5678')).toBe('123456');
  });
  it('accepts exactly six digits', () => {
    expect(totpCodeSchema.safeParse('123456').success).toBe(true);
    expect(messages(totpCodeSchema.safeParse('12345'))).toEqual(['Please enter a 6-digit code from your authenticator app.']);
  });
  it('accepts a recovery code at sign-in', () => {
    expect(sanitizeRecoveryInput('abcde-12345 ')).toBe('ABCDE-12345');
    expect(totpOrRecoveryCode.safeParse('ABCDE-12345').success).toBe(true);
    expect(totpOrRecoveryCode.safeParse('ABC').success).toBe(false);
  });
});
