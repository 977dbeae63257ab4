import { ROLE_LABELS, type Role } from '@outlay/contracts/role-names';
import { movedDateNote } from '@outlay/contracts/business-dates';
import { formatDate, formatMoney, formatNumber } from '@outlay/contracts/format';

// Money, dates, numbers and plurals are formatted by the formatters shared with the server.
export {
  formatCompact,
  formatDate,
  formatDateTime,
  formatDuration,
  formatList,
  formatMinutes,
  formatMoney,
  formatMoneyOf,
  formatMonth,
  formatNumber,
  formatPercent,
  plural,
} from '@outlay/contracts/format';

/** An optional amount: "5000.00" → "$5,000.00" with a currency, "5,000.00" without; empty → null. */
export function formatAmount(amount: string | null | undefined, currency?: string | null): string | null {
  if (amount === null || amount === undefined || amount === '') return null;
  // An amount without its currency (a limit in each company's own currency) still reads as money: two decimals.
  return currency ? formatMoney(amount, currency) : formatNumber(amount, 2, 2);
}

export function roleLabel(role: string): string {
  return ROLE_LABELS[role as Role] ?? role.replace(/_/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase());
}

export function fullName(person: { firstName?: string | null; lastName?: string | null }): string {
  return [person.firstName, person.lastName].filter(Boolean).join(' ').trim();
}

/** docs/product.md §6.1: the avatar shows the first letters of the first and last name. */
export function initials(person: { firstName?: string | null; lastName?: string | null; username?: string }): string {
  const letters = `${person.firstName?.trim()[0] ?? ''}${person.lastName?.trim()[0] ?? ''}`;
  return (letters || person.username?.[0] || '?').toUpperCase();
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

/** "moved from Dec 25, 2026 (Christmas Day)": a pay or due date the server moved to a business day; null when it stands. */
export function formatMovedFrom(
  adjustedFrom: string | null | undefined,
  reason: string | null | undefined,
): string | null {
  return movedDateNote(adjustedFrom, reason, formatDate);
}

/** Today as YYYY-MM-DD in the user's time zone. */
export function todayIso(now = new Date()): string {
  const y = now.getFullYear();
  const m = String(now.getMonth() + 1).padStart(2, '0');
  const d = String(now.getDate()).padStart(2, '0');
  return `${y}-${m}-${d}`;
}

/** An exchange rate as the API sends it ("1.08500000") without trailing zeros, at least 4 decimals ("1.0850"). */
export function formatRate(rate: string | null | undefined): string {
  if (!rate) return '';
  const m = /^(\d+)\.(\d+)$/.exec(rate.trim());
  if (!m) return rate;
  const decimals = m[2]!.replace(/0+$/, '').padEnd(4, '0');
  return `${m[1]}.${decimals}`;
}
