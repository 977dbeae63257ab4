// CHECK constraints declared beside the columns they guard, so drizzle-kit writes them into the
// migrations: the database refuses an impossible row whatever code path (a job, a script, a
// future bug) tries to write it. Enum checks take the contracts' lists, so changing a list
// there shows up as a migration here.
import { sql, type SQL } from 'drizzle-orm';
import { check, type PgColumn } from 'drizzle-orm/pg-core';

/** An SQL string literal. The values come from our own constant lists, never from users. */
function literal(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

export interface EnumCheckInfo {
  column: PgColumn;
  values: readonly string[];
}

// Keyed by the check's expression, so tests can read back which list each check was built from.
const enumChecks = new WeakMap<SQL, EnumCheckInfo>();

/**
 * `column IN (...)` with the values written inline: a CHECK cannot take bind parameters.
 * A NULL passes, as in every CHECK; NOT NULL is the column's business.
 */
export function enumCheck(name: string, column: PgColumn, values: readonly string[]) {
  if (values.length === 0) throw new Error(`${name}: an enum check needs at least one value`);
  const value = sql`${column} in (${sql.raw(values.map(literal).join(', '))})`;
  enumChecks.set(value, { column, values });
  return check(name, value);
}

/** The column and values of a check made by `enumCheck` (from `getTableConfig(table).checks`), else undefined. */
export function enumCheckInfo(c: { value: SQL }): EnumCheckInfo | undefined {
  return enumChecks.get(c.value);
}

/** Money and counts that cannot be below zero. */
export function nonNegativeCheck(name: string, column: PgColumn) {
  return check(name, sql`${column} >= 0`);
}

/** FX rates: a zero or negative rate would turn every converted amount into nonsense. */
export function positiveCheck(name: string, column: PgColumn) {
  return check(name, sql`${column} > 0`);
}

/** ISO 4217 alphabetic code, upper case, as `currencyCode` in the contracts accepts it. */
export function currencyCheck(name: string, column: PgColumn) {
  return check(name, sql`${column} ~ '^[A-Z]{3}$'`);
}

/** A period or range: its start is not after its end (either may be NULL where the column allows it). */
export function orderCheck(name: string, start: PgColumn | SQL, end: PgColumn | SQL) {
  return check(name, sql`${start} <= ${end}`);
}
