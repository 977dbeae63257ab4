// Field rules shared by the organization-structure schemas (organizations, departments, categories,
// FX rates): messages name the field, codes are upper-cased, blank optional fields become null.
import { z } from 'zod';
import { currencyCode, moneyAmount } from './lists.ts';

export const uuid = (message = 'Not a valid id') => z.uuid(message);
/** List filters arrive as strings; an "active" filter is `true` or `false`. */
export const activeFilter = z.enum(['true', 'false']).optional();
export const requiredText = (label: string, max: number) =>
  z.string().trim().min(1, `${label} is required`).max(max, `${label} must be at most ${max} characters`);
export const optionalText = (label: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .nullable()
    .optional()
    .transform((v) => (v === '' ? null : v));
export const codeField = (label: string) =>
  z
    .string()
    .trim()
    .min(1, `${label} is required`)
    .max(20, `${label} must be at most 20 characters`)
    .regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/, `${label} may contain only letters, digits, "-" and "_"`)
    .transform((v) => v.toUpperCase());
/** A currency code, accepted in any case ("eur" → "EUR"). */
export const currencyField = z.preprocess((v) => (typeof v === 'string' ? v.trim().toUpperCase() : v), currencyCode);
/** A non-negative amount (limits, thresholds): a decimal string with at most two decimals. */
export const nonNegativeAmount = moneyAmount.refine((v) => !v.startsWith('-'), 'The amount cannot be negative');
/** An optional limit or threshold: an empty field means none (null). */
export const optionalAmount = z
  .preprocess((v) => (typeof v === 'string' && v.trim() === '' ? null : v), nonNegativeAmount.nullable())
  .optional();
