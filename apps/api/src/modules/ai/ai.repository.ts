import { and, asc, eq, sql } from 'drizzle-orm';
import { vendors, type Db } from '@outlay/db';

/** The vendors a person may raise a request with: active ones of their organization. */
export async function usableVendors(db: Db, organizationId: string): Promise<{ id: string; name: string }[]> {
  return db
    .select({ id: vendors.id, name: vendors.name })
    .from(vendors)
    .where(and(eq(vendors.organizationId, organizationId), eq(vendors.status, 'active')))
    .orderBy(asc(sql`lower(${vendors.name})`));
}
