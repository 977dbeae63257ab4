// Schemas for the audit screens and API: /audit-history.
import { z } from 'zod';
import { exportQuery, listQuery, paginated } from './lists.ts';
import { dateFilter } from './security.ts';

const auditFilters = {
  actorId: z.uuid('Not a valid user id').optional(),
  action: z.string().trim().max(100).optional(),
  entityType: z.string().trim().max(100).optional(),
  entityId: z.string().trim().max(200).optional(),
  from: dateFilter.optional(),
  to: dateFilter.optional(),
};
export const auditQuery = listQuery.extend(auditFilters);
export type AuditQuery = z.infer<typeof auditQuery>;
export const auditExportQuery = exportQuery.extend(auditFilters);
export type AuditExportQuery = z.infer<typeof auditExportQuery>;

export const auditIdParam = z.object({
  id: z.coerce
    .number({ error: 'Not a valid audit event id' })
    .int('Not a valid audit event id')
    .positive('Not a valid audit event id'),
});

/** One field of a record as it was before and after the change, formatted for people (money with its currency, dates). */
export const auditFieldChange = z.object({
  field: z.string(),
  before: z.string().nullable(),
  after: z.string().nullable(),
});
export type AuditFieldChange = z.infer<typeof auditFieldChange>;

export const auditItem = z.object({
  id: z.number().int(),
  occurredAt: z.string(),
  actorId: z.string().nullable(),
  actorName: z.string().nullable(),
  actorUsername: z.string().nullable(),
  action: z.string(),
  entityType: z.string(),
  entityId: z.string().nullable(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  /** Whether the event carries before/after values. */
  hasChanges: z.boolean(),
  /** The record by its reference or name (REQ-000578, the vendor's name, the user's name). */
  record: z.string(),
  /** The action in words ("Approved step 1 of 2"). */
  description: z.string(),
  /** The fields that changed, before and after, formatted. */
  changes: z.array(auditFieldChange),
});
export type AuditItem = z.infer<typeof auditItem>;
export const auditPage = paginated(auditItem);

export const auditDetail = auditItem.extend({
  before: z.unknown(),
  after: z.unknown(),
  metadata: z.unknown(),
  prevHash: z.string(),
  hash: z.string(),
});
export type AuditDetail = z.infer<typeof auditDetail>;

export const auditFacets = z.object({ actions: z.array(z.string()), entityTypes: z.array(z.string()) });
export type AuditFacets = z.infer<typeof auditFacets>;

export const auditVerification = z.object({
  ok: z.boolean(),
  checked: z.number().int(),
  firstBrokenId: z.number().int().nullable(),
  verifiedAt: z.string(),
});
export type AuditVerification = z.infer<typeof auditVerification>;

/** One changed key between before and after, for the diff view. */
export interface AuditChange {
  key: string;
  before: unknown;
  after: unknown;
  changed: boolean;
}

/** Top-level keys of before/after side by side, changed ones flagged (deep comparison by JSON). */
export function auditChanges(before: unknown, after: unknown): AuditChange[] {
  const obj = (v: unknown): Record<string, unknown> =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : v === null || v === undefined
        ? {}
        : { value: v };
  const b = obj(before);
  const a = obj(after);
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])].sort();
  return keys.map((key) => ({
    key,
    before: b[key],
    after: a[key],
    changed: JSON.stringify(b[key] ?? null) !== JSON.stringify(a[key] ?? null),
  }));
}
