import { and, count, eq, ilike, isNotNull, isNull, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { organizations, vendors, type Db } from '@outlay/db';
import type { IntercompanyLinkQuery } from '@outlay/contracts';
import { likePattern, listWithTotal, orderBy, type Sortable } from '../../lib/lists.ts';
import { nextVersion } from '../../lib/versions.ts';

import type { Sort } from '../organizations/index.ts';

/**
 * Queries for intercompany links. Vendor rows belong to the vendors module; only
 * intercompanyOrganizationId is touched here. `visibleOrg` limits rows to one organization;
 * `undefined` means the whole group.
 */
const buyer = alias(organizations, 'buyer_org');
const counterpart = alias(organizations, 'ic_org');

const intercompanySortable: Sortable = {
  vendorName: vendors.name,
  organizationName: buyer.name,
  intercompanyOrganizationName: counterpart.name,
};

export async function findIntercompanyLinks(
  db: Db,
  params: {
    query: Omit<IntercompanyLinkQuery, 'page' | 'pageSize'> & { page?: number; pageSize?: number };
    visibleOrg?: string | null;
    vendorId?: string;
  },
) {
  const { query } = params;
  const visible =
    params.visibleOrg === undefined
      ? undefined
      : params.visibleOrg === null
        ? sql`false`
        : or(eq(vendors.organizationId, params.visibleOrg), eq(vendors.intercompanyOrganizationId, params.visibleOrg));
  const where = and(
    isNotNull(vendors.intercompanyOrganizationId),
    visible,
    params.vendorId ? eq(vendors.id, params.vendorId) : undefined,
    query.organizationId
      ? or(
          eq(vendors.organizationId, query.organizationId),
          eq(vendors.intercompanyOrganizationId, query.organizationId),
        )
      : undefined,
    query.q
      ? or(
          ilike(vendors.name, likePattern(query.q)),
          ilike(vendors.taxId, likePattern(query.q)),
          ilike(buyer.name, likePattern(query.q)),
          ilike(counterpart.name, likePattern(query.q)),
        )
      : undefined,
  );
  const rows = db
    .select({
      vendorId: vendors.id,
      vendorName: vendors.name,
      vendorTaxId: vendors.taxId,
      organizationId: vendors.organizationId,
      organizationName: buyer.name,
      intercompanyOrganizationId: sql<string>`${vendors.intercompanyOrganizationId}`,
      intercompanyOrganizationName: sql<string>`${counterpart.name}`,
    })
    .from(vendors)
    .innerJoin(buyer, eq(buyer.id, vendors.organizationId))
    .innerJoin(counterpart, eq(counterpart.id, vendors.intercompanyOrganizationId))
    .where(where)
    .orderBy(orderBy(intercompanySortable, query as Sort, 'organizationName'), vendors.name, vendors.id);
  const total = db
    .select({ n: count() })
    .from(vendors)
    .innerJoin(buyer, eq(buyer.id, vendors.organizationId))
    .innerJoin(counterpart, eq(counterpart.id, vendors.intercompanyOrganizationId))
    .where(where);
  return listWithTotal(query, rows, total);
}

export async function findIntercompanyCandidates(
  db: Db,
  params: { organizationId?: string; visibleOrg?: string | null; q?: string },
) {
  return db
    .select({
      vendorId: vendors.id,
      vendorName: vendors.name,
      organizationId: vendors.organizationId,
      organizationName: buyer.name,
    })
    .from(vendors)
    .innerJoin(buyer, eq(buyer.id, vendors.organizationId))
    .where(
      and(
        isNull(vendors.intercompanyOrganizationId),
        params.visibleOrg === undefined
          ? undefined
          : params.visibleOrg === null
            ? sql`false`
            : eq(vendors.organizationId, params.visibleOrg),
        params.organizationId ? eq(vendors.organizationId, params.organizationId) : undefined,
        params.q
          ? or(ilike(vendors.name, likePattern(params.q)), ilike(vendors.taxId, likePattern(params.q)))
          : undefined,
      ),
    )
    .orderBy(vendors.name)
    .limit(50);
}

export async function vendorForLink(db: Db, id: string) {
  const [row] = await db
    .select({
      id: vendors.id,
      name: vendors.name,
      organizationId: vendors.organizationId,
      intercompanyOrganizationId: vendors.intercompanyOrganizationId,
    })
    .from(vendors)
    .where(eq(vendors.id, id))
    .limit(1);
  return row ?? null;
}

export async function setVendorIntercompany(db: Db, params: { vendorId: string; organizationId: string | null }) {
  await db
    .update(vendors)
    .set({ intercompanyOrganizationId: params.organizationId, version: nextVersion(vendors.version) })
    .where(eq(vendors.id, params.vendorId));
}
