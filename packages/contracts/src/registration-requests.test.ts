import { describe, expect, it } from 'vitest';
import { DEMO_AUTHORIZED_DOMAINS } from './constants.ts';
import { isAuthorizedEmail, registrationFormSchema, registrationRequestInput } from './registration-requests.ts';
import { changePasswordInput, loginInput } from './auth.ts';

const domains = DEMO_AUTHORIZED_DOMAINS;
const valid = {
  firstName: 'Jamie',
  lastName: 'Lopez',
  email: 'jamie@meridianfoods.com',
  password: 'Jamie-Foods-2026',
  confirmPassword: 'Jamie-Foods-2026',
  requestedRole: 'requester',
};
const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues[0]?.message;

describe('isAuthorizedEmail (docs/product.md §2.14)', () => {
  it.each([
    ['a@meridiangroup.com', true],
    ['a@MeridianGroup.COM', true],
    ['a@eu.meridiangroup.com', true],
    ['a@evilmeridiangroup.com', false],
    ['a@meridiangroup.com.evil.io', false],
    ['meridiangroup.com', false],
  ])('%s → %s', (email, ok) => expect(isAuthorizedEmail(email, domains)).toBe(ok));
});

describe('registration schemas (docs/product.md §6.4)', () => {
  it('accepts a valid form and strips nothing the API needs', () => {
    const parsed = registrationRequestInput(domains).parse(valid);
    expect(parsed).toMatchObject({ email: 'jamie@meridianfoods.com', requestedRole: 'requester' });
  });

  it.each([
    [{ firstName: 'J' }, 'First name must be at least 2 characters'],
    [{ lastName: 'L' }, 'Last name must be at least 2 characters'],
    [{ email: 'nope' }, 'Please enter a valid email address'],
    [{ email: 'a@gmail.com' }, 'Email must be from an authorized domain'],
    [{ password: 'Ab1', confirmPassword: 'Ab1' }, 'Password must be at least 8 characters'],
    [
      { password: 'abcdefgh1', confirmPassword: 'abcdefgh1' },
      'Password must contain at least one uppercase letter, one lowercase letter, and one number',
    ],
    [{ confirmPassword: 'different' }, "Passwords don't match"],
    [{ requestedRole: '' }, 'Please select a role'],
  ])('%j → %s', (override, message) => {
    expect(firstMessage(registrationFormSchema(domains).safeParse({ ...valid, ...override }))).toBe(message);
  });
});

describe('auth schemas', () => {
  it('login needs both fields', () => {
    expect(firstMessage(loginInput.safeParse({ username: 'adam' }))).toBe('Please enter both username and password');
    expect(loginInput.safeParse({ username: 'adam', password: 'x' }).success).toBe(true);
  });

  it('change-password enforces length and confirmation', () => {
    expect(firstMessage(changePasswordInput.safeParse({ newPassword: 'short' }))).toBe(
      'Password must be at least 8 characters long',
    );
    expect(firstMessage(changePasswordInput.safeParse({ newPassword: 'longenough', confirmPassword: 'other' }))).toBe(
      "Passwords don't match",
    );
    expect(changePasswordInput.safeParse({ newPassword: 'longenough' }).success).toBe(true);
  });
});
