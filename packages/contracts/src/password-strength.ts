/** The advisory strength meter of docs/product.md §6.4: one point per rule, labels by score. */
export type StrengthLabel = 'Very Weak' | 'Weak' | 'Fair' | 'Good' | 'Strong';

export interface PasswordStrength {
  score: number;
  label: StrengthLabel;
  checks: { length: boolean; uppercase: boolean; lowercase: boolean; digit: boolean; special: boolean };
}

export function passwordStrength(password: string): PasswordStrength {
  const checks = {
    length: password.length >= 8,
    uppercase: /[A-Z]/.test(password),
    lowercase: /[a-z]/.test(password),
    digit: /\d/.test(password),
    special: /[^A-Za-z0-9]/.test(password),
  };
  const score = Object.values(checks).filter(Boolean).length;
  const label: StrengthLabel =
    score <= 1 ? 'Very Weak' : score === 2 ? 'Weak' : score === 3 ? 'Fair' : score === 4 ? 'Good' : 'Strong';
  return { score, label, checks };
}
