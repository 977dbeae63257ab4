import { sql, type SQL } from 'drizzle-orm';
import { customType, type AnyPgColumn } from 'drizzle-orm/pg-core';

/*
 * The expressions search reads, written once: the schema's generated column and GIN indexes are
 * built on them and the queries repeat them, so PostgreSQL matches a query's expression to its index.
 */

/** A full-text document; read as its text form, never written (PostgreSQL computes it). */
export const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/**
 * A request's words: its title weighs more than its description. The column names are bare, as
 * a generated column's expression needs; `prefix` qualifies them for a query over an alias.
 */
export function requestSearchVector(prefix = ''): SQL {
  return sql.raw(
    `(setweight(to_tsvector('english'::regconfig, ${prefix}"title"), 'A') || setweight(to_tsvector('english'::regconfig, coalesce(${prefix}"description", '')), 'B'))`,
  );
}

/** A person as search reads them: name, username and e-mail in one lower-case text. */
export function userSearchText(t: {
  firstName: AnyPgColumn;
  lastName: AnyPgColumn;
  username: AnyPgColumn;
  email: AnyPgColumn;
}): SQL {
  return sql`lower(${t.firstName} || ' ' || ${t.lastName} || ' ' || ${t.username} || ' ' || ${t.email})`;
}
