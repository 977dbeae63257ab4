import { ROLE_LABELS } from '@outlay/contracts/roles';
import type { Role } from '@outlay/contracts';

export function roleLabel(role: string): string {
  return ROLE_LABELS[role as Role] ?? role.replace(/_/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase());
}

export function fullName(person: { firstName?: string | null; lastName?: string | null }): string {
  return [person.firstName, person.lastName].filter(Boolean).join(' ').trim();
}

/** Seed §2: the avatar shows the first letters of the first and last name. */
export function initials(person: { firstName?: string | null; lastName?: string | null; username?: string }): string {
  const letters = `${person.firstName?.trim()[0] ?? ''}${person.lastName?.trim()[0] ?? ''}`;
  return (letters || person.username?.[0] || '?').toUpperCase();
}

export function formatDateTime(value: string | Date | null | undefined): string | null {
  if (!value) return null;
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return null;
  return new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

export function capitalize(value: string): string {
  return value ? value[0]!.toUpperCase() + value.slice(1) : value;
}

export function greeting(now = new Date()): string {
  const hour = now.getHours();
  if (hour < 12) return 'Good morning';
  if (hour < 18) return 'Good afternoon';
  return 'Good evening';
}

/** A decimal string as sent by the API (`moneyAmount`), e.g. "-1234.5". */
const DECIMAL = /^[-+]?\d+(\.\d+)?$/;

/**
 * Money for display: the API's exact decimal string (never a float) formatted with the
 * currency in the user's locale. Intl formats a numeric string exactly, so no float math is
 * involved; an amount that is not a decimal string is shown as it came, with its currency.
 */
export function formatMoney(amount: string | null | undefined, currency: string | null | undefined = 'USD'): string {
  if (amount === null || amount === undefined || amount === '') return '';
  const value = amount.trim();
  const code = (currency ?? 'USD').toUpperCase();
  if (!DECIMAL.test(value)) return `${amount} ${code}`.trim();
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency: code }).format(value as Intl.StringNumericLiteral);
  } catch {
    // An unknown currency code: keep the exact amount and show the code after it.
    return `${value} ${code}`;
  }
}

/** A calendar date in the user's locale ("12 Mar 2026"). Date-only ISO strings stay on their day. */
export function formatDate(value: string | Date | null | undefined): string | null {
  if (!value) return null;
  const dateOnly = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value);
  const date = typeof value === 'string' ? new Date(dateOnly ? `${value}T00:00:00` : value) : value;
  if (Number.isNaN(date.getTime())) return null;
  return new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(date);
}
