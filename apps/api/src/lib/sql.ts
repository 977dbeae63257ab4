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
