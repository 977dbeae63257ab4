import { and, asc, eq, sql } from 'drizzle-orm';
import { departments, organizations, vendors, type Db } from '@outlay/db';

/** The vendors a person may raise a request with: active ones of their organization. */
export async function usableVendors(db: Db, organizationId: string): Promise<{ id: string; name: string }[]> {
  return db
    .select({ id: vendors.id, name: vendors.name })
    .from(vendors)
    .where(and(eq(vendors.organizationId, organizationId), eq(vendors.status, 'active')))
    .orderBy(asc(sql`lower(${vendors.name})`));
}

/** A department's name and its organization's, for the scope an answer's figures were computed over. */
export async function departmentWithOrganization(
  db: Db,
  departmentId: string,
): Promise<{ department: string; organization: string } | null> {
  const [row] = await db
    .select({ department: departments.name, organization: organizations.name })
    .from(departments)
    .innerJoin(organizations, eq(organizations.id, departments.organizationId))
    .where(eq(departments.id, departmentId));
  return row ?? null;
}

export async function organizationName(db: Db, organizationId: string): Promise<string | null> {
  const [row] = await db
    .select({ name: organizations.name })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  return row?.name ?? null;
}
