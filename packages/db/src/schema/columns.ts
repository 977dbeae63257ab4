import { numeric, timestamp } from 'drizzle-orm/pg-core';

/** Amounts: exact decimals, 14 digits with 2 after the point (strings in TypeScript). */
export const money = (name: string) => numeric(name, { precision: 14, scale: 2 });
/** FX rates: 8 decimal places. */
export const rate = (name: string) => numeric(name, { precision: 18, scale: 8 });
export const ts = (name: string) => timestamp(name, { withTimezone: true });
