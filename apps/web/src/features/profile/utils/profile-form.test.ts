import { describe, expect, it } from 'vitest';
import { profileFormSchema } from './profile-form';

describe('profile form (docs/product.md §6.4)', () => {
  it('requires first and last name', () => {
    const result = profileFormSchema.safeParse({ firstName: '', lastName: 'X', email: '', phoneNumber: '' });
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((i) => i.message)).toEqual(['First name and last name are required']);
  });
  it('does not check email or phone on the client', () => {
    const result = profileFormSchema.safeParse({
      firstName: 'Rita',
      lastName: 'R',
      email: 'not-an-email',
      phoneNumber: 'call me',
    });
    expect(result.success).toBe(true);
  });
});
