import { and, asc, count, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { VendorListQuery } from '@outlay/contracts';
import { auditEvents, organizations, payables, spendingRequests, users, vendors, type Db } from '@outlay/db';
import { likePattern, listPage, orderBy, pageWindow, type Sortable } from '../../lib/lists.ts';
import { nextVersion, versionIs } from '../../lib/versions.ts';

/**
 * Approved and paid requests per vendor, in the organization's currency, in one grouped pass
 * joined to the vendor rows. A partly approved request counts its approved part converted
 * with the request's own rate; the sum is rounded to the currency once, by the service.
 */
function vendorSpend(db: Db) {
  const converted = sql`CASE WHEN ${spendingRequests.approvedAmount} IS NULL OR ${spendingRequests.approvedAmount} = ${spendingRequests.amount}
    THEN ${spendingRequests.amountOrg} ELSE ${spendingRequests.approvedAmount} * ${spendingRequests.fxRate} END`;
  return db
    .select({
      vendorId: sql<string>`${spendingRequests.vendorId}`.as('spend_vendor_id'),
      orgCurrency: sql<string>`${spendingRequests.orgCurrency}`.as('spend_currency'),
      toDate: sql<string>`sum(${converted})`.as('spend_to_date'),
    })
    .from(spendingRequests)
    .where(and(sql`${spendingRequests.vendorId} IS NOT NULL`, inArray(spendingRequests.status, ['approved', 'paid'])))
    .groupBy(spendingRequests.vendorId, spendingRequests.orgCurrency)
    .as('vendor_spend');
}

/**
 * What is still owed to each vendor: open payables (amount less what was paid), in the
 * request's currency converted to the organization's with the request's own rate, in one
 * grouped pass like the spend.
 */
function vendorOpen(db: Db) {
  return db
    .select({
      vendorId: sql<string>`${payables.vendorId}`.as('open_vendor_id'),
      orgCurrency: sql<string>`${spendingRequests.orgCurrency}`.as('open_currency'),
      open: sql<string>`sum((${payables.amount} - ${payables.paidAmount}) * ${spendingRequests.fxRate})`.as(
        'open_balance',
      ),
    })
    .from(payables)
    .innerJoin(spendingRequests, eq(spendingRequests.id, payables.requestId))
    .where(sql`${payables.settledAt} IS NULL`)
    .groupBy(payables.vendorId, spendingRequests.orgCurrency)
    .as('vendor_open');
}

/** Who asked for a vendor's pending bank account change. */
const requester = alias(users, 'bank_requester');

/** Every column a vendor answer needs; never the sealed bank value. */
const vendorColumns = {
  id: vendors.id,
  organizationId: vendors.organizationId,
  organizationName: organizations.name,
  name: vendors.name,
  taxId: vendors.taxId,
  contactName: vendors.contactName,
  email: vendors.email,
  phone: vendors.phone,
  address: vendors.address,
  paymentTermsDays: vendors.paymentTermsDays,
  currency: vendors.currency,
  bankAccountLast4: vendors.bankAccountLast4,
  pendingBankAccountLast4: vendors.pendingBankAccountLast4,
  pendingBankById: vendors.pendingBankById,
  pendingBankAt: vendors.pendingBankAt,
  pendingBankByFirstName: requester.firstName,
  pendingBankByLastName: requester.lastName,
  status: vendors.status,
  intercompanyOrganizationId: vendors.intercompanyOrganizationId,
  version: vendors.version,
  createdAt: vendors.createdAt,
  updatedAt: vendors.updatedAt,
};
export type VendorRow = {
  id: string;
  organizationId: string;
  organizationName: string;
  name: string;
  taxId: string;
  contactName: string | null;
  email: string | null;
  phone: string | null;
  address: string | null;
  paymentTermsDays: number;
  currency: string;
  bankAccountLast4: string | null;
  pendingBankAccountLast4: string | null;
  pendingBankById: string | null;
  pendingBankAt: Date | null;
  pendingBankByFirstName: string | null;
  pendingBankByLastName: string | null;
  status: 'pending_verification' | 'active' | 'blocked';
  intercompanyOrganizationId: string | null;
  version: number;
  createdAt: Date;
  updatedAt: Date;
  spendToDate: string | null;
  openBalance: string | null;
  spendCurrency: string;
};

function withSpend(db: Db) {
  const spend = vendorSpend(db);
  const open = vendorOpen(db);
  const columns = {
    ...vendorColumns,
    spendToDate: spend.toDate,
    openBalance: open.open,
    spendCurrency: organizations.currency,
  };
  const join = and(eq(spend.vendorId, vendors.id), eq(spend.orgCurrency, organizations.currency));
  const openJoin = and(eq(open.vendorId, vendors.id), eq(open.orgCurrency, organizations.currency));
  return { spend, open, columns, join, openJoin };
}

const SORTABLE: Sortable = {
  name: sql`lower(${vendors.name})`,
  taxId: vendors.taxId,
  organization: organizations.name,
  currency: vendors.currency,
  paymentTermsDays: vendors.paymentTermsDays,
  status: vendors.status,
  createdAt: vendors.createdAt,
  updatedAt: vendors.updatedAt,
};

export type VendorFilter = Pick<VendorListQuery, 'q' | 'status' | 'organizationId' | 'currency'>;

function where(scope: SQL | undefined, filter: VendorFilter): SQL | undefined {
  const parts: (SQL | undefined)[] = [scope];
  if (filter.q) {
    const p = likePattern(filter.q);
    parts.push(or(ilike(vendors.name, p), ilike(vendors.taxId, p)));
  }
  if (filter.status) parts.push(eq(vendors.status, filter.status));
  if (filter.organizationId) parts.push(eq(vendors.organizationId, filter.organizationId));
  if (filter.currency) parts.push(eq(vendors.currency, filter.currency));
  return and(...parts);
}

export async function listVendors(
  db: Db,
  params: {
    scope: SQL | undefined;
    query: VendorFilter & Pick<VendorListQuery, 'sort' | 'order'>;
    window?: { limit: number; offset: number };
  },
): Promise<{ rows: VendorRow[]; total: number }> {
  const condition = where(params.scope, params.query);
  const { spend, open, columns, join, openJoin } = withSpend(db);
  const { rows, total } = await listPage(db, {
    rows: db
      .select(columns)
      .from(vendors)
      .innerJoin(organizations, eq(organizations.id, vendors.organizationId))
      .leftJoin(requester, eq(requester.id, vendors.pendingBankById))
      .leftJoin(spend, join)
      .leftJoin(open, openJoin)
      .where(condition),
    order: [orderBy(SORTABLE, params.query, 'name'), asc(vendors.id)],
    window: params.window ?? null,
    count: db
      .select({ n: count() })
      .from(vendors)
      .innerJoin(organizations, eq(organizations.id, vendors.organizationId))
      .where(condition),
  });
  return { rows: rows as VendorRow[], total };
}

export { pageWindow };

export async function findVendor(
  db: Db,
  params: { id: string; scope: SQL | undefined; forUpdate?: boolean },
): Promise<VendorRow | null> {
  const { spend, open, columns, join, openJoin } = withSpend(db);
  const q = db
    .select(columns)
    .from(vendors)
    .innerJoin(organizations, eq(organizations.id, vendors.organizationId))
    .leftJoin(requester, eq(requester.id, vendors.pendingBankById))
    .leftJoin(spend, join)
    .leftJoin(open, openJoin)
    .where(and(eq(vendors.id, params.id), params.scope));
  const [row] = params.forUpdate ? await q.for('update', { of: vendors }) : await q;
  return (row as VendorRow | undefined) ?? null;
}

/** The vendor's sealed bank account on file and the one a pending change would set. */
export async function vendorSealedBank(db: Db, id: string) {
  const [row] = await db
    .select({ bankAccountEnc: vendors.bankAccountEnc, pendingBankAccountEnc: vendors.pendingBankAccountEnc })
    .from(vendors)
    .where(eq(vendors.id, id));
  return row ?? null;
}

export async function taxIdTaken(db: Db, params: { taxId: string; exceptId?: string }): Promise<boolean> {
  const rows = await db
    .select({ id: vendors.id })
    .from(vendors)
    .where(
      and(
        sql`lower(${vendors.taxId}) = lower(${params.taxId})`,
        params.exceptId ? sql`${vendors.id} <> ${params.exceptId}` : undefined,
      ),
    )
    .limit(1);
  return rows.length > 0;
}

export async function insertVendor(db: Db, values: typeof vendors.$inferInsert): Promise<string> {
  const [row] = await db.insert(vendors).values(values).returning({ id: vendors.id });
  return row!.id;
}

/** Applies only while the vendor still has the version the caller saw; false when it has moved on. */
export async function updateVendorRow(
  db: Db,
  params: { id: string; expectedVersion: number | undefined; values: Partial<typeof vendors.$inferInsert> },
): Promise<boolean> {
  const rows = await db
    .update(vendors)
    .set({ ...params.values, version: nextVersion(vendors.version) })
    .where(and(eq(vendors.id, params.id), versionIs(vendors.version, params.expectedVersion)))
    .returning({ id: vendors.id });
  return rows.length > 0;
}

/** Conditional status change: only moves a vendor still in `from`, so concurrent changes give one winner. */
export async function changeVendorStatus(
  db: Db,
  params: {
    id: string;
    from: VendorRow['status'];
    to: VendorRow['status'];
    now: Date;
    expectedVersion: number | undefined;
  },
): Promise<boolean> {
  const rows = await db
    .update(vendors)
    .set({ status: params.to, updatedAt: params.now, version: nextVersion(vendors.version) })
    .where(
      and(
        eq(vendors.id, params.id),
        eq(vendors.status, params.from),
        versionIs(vendors.version, params.expectedVersion),
      ),
    )
    .returning({ id: vendors.id });
  return rows.length > 0;
}

export async function organizationById(
  db: Db,
  id: string,
): Promise<{ id: string; name: string; currency: string; active: boolean } | null> {
  const [row] = await db
    .select({
      id: organizations.id,
      name: organizations.name,
      currency: organizations.currency,
      active: organizations.active,
    })
    .from(organizations)
    .where(eq(organizations.id, id));
  return row ?? null;
}

export async function listOrganizations(db: Db, params: { onlyId: string | null | undefined }) {
  return db
    .select({
      id: organizations.id,
      name: organizations.name,
      code: organizations.code,
      currency: organizations.currency,
    })
    .from(organizations)
    .where(
      and(
        eq(organizations.active, true),
        params.onlyId === undefined
          ? undefined
          : params.onlyId === null
            ? sql`false`
            : eq(organizations.id, params.onlyId),
      ),
    )
    .orderBy(sql`${organizations.kind} = 'subsidiary'`, asc(organizations.name));
}

const actor = alias(users, 'actor');

export async function lastStatusChange(db: Db, vendorId: string) {
  const [row] = await db
    .select({
      after: auditEvents.after,
      metadata: auditEvents.metadata,
      at: auditEvents.occurredAt,
      firstName: actor.firstName,
      lastName: actor.lastName,
    })
    .from(auditEvents)
    .leftJoin(actor, eq(actor.id, auditEvents.actorId))
    .where(
      and(
        eq(auditEvents.entityType, 'vendor'),
        eq(auditEvents.entityId, vendorId),
        eq(auditEvents.action, 'vendor.status_changed'),
      ),
    )
    .orderBy(desc(auditEvents.id))
    .limit(1);
  return row ?? null;
}
