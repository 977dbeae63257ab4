import { sql, type SQL } from 'drizzle-orm';

/** Rows of a raw `db.execute` on either driver (node-postgres and PGlite both answer `{ rows }`). */
export function rowsOf<T>(result: unknown): T[] {
  const r = result as { rows?: T[] } | T[];
  return Array.isArray(r) ? r : (r.rows ?? []);
}

/**
 * A json column of a raw statement: node-postgres decodes it, PGlite may hand it over as text;
 * SQL NULL reads as `empty`.
 */
export function jsonOf<T>(value: unknown, empty: T): T {
  if (typeof value === 'string') return JSON.parse(value) as T;
  return (value ?? empty) as T;
}

/**
 * A constant of ours written into the statement's text instead of sent as a parameter. A limit sent
 * as a parameter makes PostgreSQL's generic plan of the prepared statement take it for a tenth of
 * the table: it prices that plan many times too high and plans every run anew instead of keeping
 * it (docs/decisions/024). Only our own constants and validated page sizes are written so.
 */
export function literal(n: number): SQL {
  return sql.raw(String(Math.trunc(n)));
}

/**
 * `literal` for a query builder's `.limit()`, which takes a number and writes an SQL object it is
 * given instead into the statement's text (drizzle's select builder does so for any object).
 */
export function literalLimit(n: number): number {
  return literal(n) as unknown as number;
}
