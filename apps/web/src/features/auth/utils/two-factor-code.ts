import { TOTP_DIGITS } from '@outlay/contracts/constants';

/** docs/product.md §6.4: non-digits are stripped and the field holds at most six characters. */
export function sanitizeTotpInput(value: string): string {
  return value.replace(/\D/g, '').slice(0, TOTP_DIGITS);
}

/** Recovery codes look like ABCDE-12345; keep letters, digits and one dash, upper-cased. */
export function sanitizeRecoveryInput(value: string): string {
  return value
    .toUpperCase()
    .replace(/[^A-Z0-9-]/g, '')
    .slice(0, 11);
}
