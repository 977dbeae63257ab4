import {
  type AuditDetail,
  type AuditExportQuery,
  type AuditFacets,
  type AuditItem,
  type AuditQuery,
  type AuditVerification,
  type Paginated,
} from '@outlay/contracts';
import { auditEvents, users } from '@outlay/db';
import { AppError } from '../../lib/app-error.ts';
import { verifyAuditChain } from '../../lib/audit.ts';
import { requireAuth, type AuthInfo, type Ctx } from '../../lib/context.ts';
import type { ExportAbout, ExportColumn } from '../../lib/export.ts';
import { page, pageWindow } from '../../lib/lists.ts';
import { scopeCondition } from '../../lib/scope.ts';
import { serverFormat } from '@outlay/contracts/format';
import { facets, findEvent, listEvents } from './audit.repository.ts';
import { changesText, ledgerFacts, ledgerWords, type LedgerFacts } from './audit.ledger.ts';

/**
 * Audit events are scoped by their actor: group scope reads everything (including events with
 * no actor, such as a visitor's registration), narrower scopes the events of people inside it.
 */
function auditScope(auth: AuthInfo) {
  return scopeCondition(auth, 'audit.read', {
    organizationId: users.organizationId,
    departmentId: users.departmentId,
    ownerId: auditEvents.actorId,
  });
}

interface ItemRow {
  id: number;
  occurredAt: Date;
  actorId: string | null;
  actorUsername: string | null;
  actorFirstName: string | null;
  actorLastName: string | null;
  action: string;
  entityType: string;
  entityId: string | null;
  ip: string | null;
  userAgent: string | null;
  hasChanges: boolean | null;
  before: unknown;
  after: unknown;
  metadata: unknown;
}

function toItem(row: ItemRow, facts: LedgerFacts): AuditItem {
  return {
    id: row.id,
    occurredAt: new Date(row.occurredAt).toISOString(),
    actorId: row.actorId,
    actorName: row.actorFirstName ? `${row.actorFirstName} ${row.actorLastName ?? ''}`.trim() : null,
    actorUsername: row.actorUsername,
    action: row.action,
    entityType: row.entityType,
    entityId: row.entityId,
    ip: row.ip,
    userAgent: row.userAgent,
    hasChanges: Boolean(row.hasChanges),
    ...ledgerWords(row, facts),
  };
}

async function toItems(ctx: Ctx, rows: ItemRow[]): Promise<AuditItem[]> {
  const facts = await ledgerFacts(ctx.db, rows);
  return rows.map((row) => toItem(row, facts));
}

export async function list(ctx: Ctx, query: AuditQuery): Promise<Paginated<AuditItem>> {
  const { rows, total } = await listEvents(ctx.db, query, auditScope(requireAuth(ctx)), pageWindow(query));
  return page(await toItems(ctx, rows), total, query);
}

export async function exportRows(ctx: Ctx, query: AuditExportQuery): Promise<AuditItem[]> {
  return toItems(ctx, (await listEvents(ctx.db, query, auditScope(requireAuth(ctx)), null)).rows);
}

/** What an export covers: the days (or instants) its events are filtered to, all of them when none. */
export function exportAbout(query: AuditExportQuery): ExportAbout {
  return { title: 'Audit history', period: { from: query.from ?? null, to: query.to ?? null } };
}

export const AUDIT_EXPORT_COLUMNS: ExportColumn<AuditItem>[] = [
  { header: 'Id', value: (r) => r.id, type: 'number' },
  { header: 'Time (UTC)', value: (r) => serverFormat.dateTime(r.occurredAt) },
  { header: 'Actor', value: (r) => r.actorName ?? 'System' },
  { header: 'Username', value: (r) => r.actorUsername },
  { header: 'Record', value: (r) => r.record },
  { header: 'Action', value: (r) => r.description },
  { header: 'Before', value: (r) => changesText(r.changes, 'before') },
  { header: 'After', value: (r) => changesText(r.changes, 'after') },
  { header: 'Event', value: (r) => r.action },
  { header: 'Entity type', value: (r) => r.entityType },
  { header: 'Entity id', value: (r) => r.entityId },
  { header: 'IP address', value: (r) => r.ip },
  { header: 'Device', value: (r) => r.userAgent },
];

export async function detail(ctx: Ctx, id: number): Promise<AuditDetail> {
  const row = await findEvent(ctx.db, id, auditScope(requireAuth(ctx)));
  if (!row) throw new AppError('NOT_FOUND', { message: 'Audit event not found' });
  const [item] = await toItems(ctx, [row]);
  return {
    ...item!,
    before: row.before ?? null,
    after: row.after ?? null,
    metadata: row.metadata ?? null,
    prevHash: row.prevHash,
    hash: row.hash,
  };
}

export async function filterValues(ctx: Ctx): Promise<AuditFacets> {
  return facets(ctx.db, auditScope(requireAuth(ctx)));
}

/** Walks the whole hash chain and names the first row that does not match (docs/product.md §2.15). */
export async function verify(ctx: Ctx): Promise<AuditVerification> {
  requireAuth(ctx);
  const result = await verifyAuditChain(ctx.db);
  return { ...result, verifiedAt: ctx.now.toISOString() };
}
