import { describe, expect, it } from 'vitest';
import { DEMO_AUTHORIZED_DOMAINS } from '@outlay/contracts/constants';
import { ApiError } from '@/lib/api-error';
import { registrationFormSchema, requestableRoleOptions } from '@outlay/contracts/registration-requests';
import { registrationFailureToast } from './registration-errors';

const schema = registrationFormSchema(DEMO_AUTHORIZED_DOMAINS);
const valid = {
  firstName: 'Nora',
  lastName: 'Newhire',
  email: 'nora@meridianfoods.com',
  password: 'Welcome1',
  confirmPassword: 'Welcome1',
  requestedRole: 'requester',
  message: '',
};
const issues = (input: Record<string, unknown>) => {
  const result = schema.safeParse(input);
  const first: Record<string, string> = {};
  // The form shows the first message per field, as react-hook-form does.
  if (!result.success) for (const i of result.error.issues) first[i.path.join('.')] ??= i.message;
  return first;
};

describe('registration form (docs/product.md §6.4)', () => {
  it('accepts a complete request without a message', () => {
    expect(schema.safeParse(valid).success).toBe(true);
  });
  it.each([
    [{ firstName: 'N' }, 'firstName', 'First name must be at least 2 characters'],
    [{ lastName: 'N' }, 'lastName', 'Last name must be at least 2 characters'],
    [{ email: 'not-an-email' }, 'email', 'Please enter a valid email address'],
    [{ email: 'nora@gmail.com' }, 'email', 'Email must be from an authorized domain'],
    [{ email: 'nora@evilmeridiangroup.com' }, 'email', 'Email must be from an authorized domain'],
    [{ password: 'Ab1', confirmPassword: 'Ab1' }, 'password', 'Password must be at least 8 characters'],
    [
      { password: 'abcdefgh', confirmPassword: 'abcdefgh' },
      'password',
      'Password must contain at least one uppercase letter, one lowercase letter, and one number',
    ],
    [{ confirmPassword: 'Welcome2' }, 'confirmPassword', "Passwords don't match"],
    [{ requestedRole: '' }, 'requestedRole', 'Please select a role'],
  ])('%j → %s: %s', (change, path, message) => {
    expect(issues({ ...valid, ...change })[path]).toBe(message);
  });
  it('accepts subdomains of an authorized domain', () => {
    expect(schema.safeParse({ ...valid, email: 'nora@eu.meridiangroup.com' }).success).toBe(true);
  });
  it('offers the 15 requestable roles', () => {
    expect(requestableRoleOptions).toHaveLength(15);
    expect(requestableRoleOptions[0]).toEqual({ value: 'requester', label: 'Expense Requester' });
  });
});

describe('registration failure toast (docs/product.md §6.7)', () => {
  it('titles duplicates Request Already Exists', () => {
    expect(registrationFailureToast(new ApiError(409, 'You already have a pending registration request'))).toEqual({
      title: 'Request Already Exists',
      description: 'You already have a pending registration request',
    });
    expect(registrationFailureToast(new ApiError(409, 'You already have an approved registration request')).title).toBe(
      'Request Already Exists',
    );
  });
  it('otherwise says Registration Failed with the server message or the default text', () => {
    expect(registrationFailureToast(new ApiError(400, 'Email must be from an authorized domain'))).toEqual({
      title: 'Registration Failed',
      description: 'Email must be from an authorized domain',
    });
    expect(registrationFailureToast(new ApiError(500, ''))).toEqual({
      title: 'Registration Failed',
      description: 'There was an error submitting your registration request.',
    });
  });
});
