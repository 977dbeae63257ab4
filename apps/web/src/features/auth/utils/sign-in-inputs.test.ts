import { describe, expect, it } from 'vitest';
import { loginInput, totpCodeSchema, totpOrRecoveryCode } from '@outlay/contracts/auth';
import { sanitizeRecoveryInput, sanitizeTotpInput } from './two-factor-code';

const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? [] : result.error!.issues.map((i) => i.message);

describe('login', () => {
  it('needs both username and password', () => {
    expect(messages(loginInput.safeParse({ username: 'rita', password: '' }))).toEqual([
      'Please enter both username and password',
    ]);
    expect(messages(loginInput.safeParse({ username: '  ', password: 'x' }))).toEqual([
      'Please enter both username and password',
    ]);
    expect(loginInput.safeParse({ username: 'rita', password: 'x' }).success).toBe(true);
  });
});

describe('two-factor code', () => {
  it('strips non-digits and keeps six characters', () => {
    expect(sanitizeTotpInput('12a 34-5678')).toBe('123456');
  });
  it('accepts exactly six digits', () => {
    expect(totpCodeSchema.safeParse('123456').success).toBe(true);
    expect(messages(totpCodeSchema.safeParse('12345'))).toEqual([
      'Please enter a 6-digit code from your authenticator app.',
    ]);
  });
  it('accepts a recovery code at sign-in', () => {
    expect(sanitizeRecoveryInput('abcde-12345 ')).toBe('ABCDE-12345');
    expect(totpOrRecoveryCode.safeParse('ABCDE-12345').success).toBe(true);
    expect(totpOrRecoveryCode.safeParse('ABC').success).toBe(false);
  });
});
