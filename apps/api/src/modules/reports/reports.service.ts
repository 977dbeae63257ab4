import {
  reportDefinition,
  type CreateSavedReportInput,
  type ReportDefinition,
  type ReportFormat,
  type ReportOptions,
  type ReportRecipients,
  type ReportResult,
  type Role,
  type SavedReport,
  type SavedReportList,
  type UpdateSavedReportInput,
} from '@outlay/contracts';
import { AppError } from '../../lib/app-error.ts';
import { writeAudit } from '../../lib/audit.ts';
import { requireAuth, type Ctx } from '../../lib/context.ts';
import type { RenderedExport } from '../../lib/export.ts';
import { requirePermission, scopeCondition } from '../../lib/scope.ts';
import { groupCurrency } from '../../lib/fx.ts';
import { categories, departments, organizations, vendors } from '@outlay/db';
import { assertVersion } from '../../lib/versions.ts';
import { renderReport } from './reports.export.ts';
import * as repo from './reports.repository.ts';
import { fiscalStartOfRun, runReport } from './reports.run.ts';
import { nextRunAt } from './reports.schedule.ts';
import { personTimeZone } from '../../lib/schedules.ts';

const PERMISSION = 'reports.read' as const;
const NOT_FOUND = 'Report not found';
const OWNER_ONLY = 'Only the owner of this report can change or delete it';

function reader(ctx: Ctx): { userId: string; role: Role } {
  const auth = requireAuth(ctx);
  requirePermission(auth, PERMISSION);
  return { userId: auth.userId, role: auth.role };
}

/** A stored definition read back through the contract (older rows get today's defaults). */
export function storedDefinition(value: unknown): ReportDefinition {
  return reportDefinition.parse(value);
}

async function toSavedReport(
  ctx: Ctx,
  row: repo.SavedReportRow,
  userId: string,
  names?: Map<string, string>,
): Promise<SavedReport> {
  const sharedNames =
    names ?? new Map((await repo.usersByIds(ctx.db, row.sharedWithUserIds)).map((u) => [u.id, u.name]));
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    definition: storedDefinition(row.definition),
    ownerId: row.ownerId,
    ownerName: row.ownerName,
    isOwner: row.ownerId === userId,
    sharedWithUsers: row.sharedWithUserIds
      .filter((id) => sharedNames.has(id))
      .map((id) => ({ id, name: sharedNames.get(id)! })),
    sharedWithRoles: row.sharedWithRoles as Role[],
    schedule: row.schedule,
    scheduleFormat: row.scheduleFormat as ReportFormat,
    nextRunAt: row.nextRunAt?.toISOString() ?? null,
    scheduleTimeZone: row.ownerTimeZone,
    lastSentAt: row.lastSentAt?.toISOString() ?? null,
    version: row.version,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function options(ctx: Ctx): Promise<ReportOptions> {
  const auth = requireAuth(ctx);
  const found = await repo.options(ctx.db, {
    organizations: scopeCondition(auth, PERMISSION, { organizationId: organizations.id }),
    departments: scopeCondition(auth, PERMISSION, {
      organizationId: departments.organizationId,
      departmentId: departments.id,
    }),
    categories: scopeCondition(auth, PERMISSION, { organizationId: categories.organizationId }),
    vendors: scopeCondition(auth, PERMISSION, { organizationId: vendors.organizationId }),
  });
  return {
    ...found,
    groupCurrency: await groupCurrency(ctx.db),
    fiscalYearStartMonth: await fiscalStartOfRun(ctx.db, auth),
  };
}

export async function recipients(ctx: Ctx, q: string | undefined): Promise<ReportRecipients> {
  reader(ctx);
  return { items: await repo.recipients(ctx.db, q || undefined) };
}

export async function run(ctx: Ctx, definition: ReportDefinition): Promise<ReportResult> {
  return runReport(ctx.db, requireAuth(ctx), definition, ctx.now);
}

export async function exportDefinition(
  ctx: Ctx,
  definition: ReportDefinition,
  format: ReportFormat,
): Promise<RenderedExport> {
  const result = await run(ctx, definition);
  return renderReport({ name: 'Spend report', def: definition, result, format, now: ctx.now });
}

export async function exportSaved(ctx: Ctx, id: string, format: ReportFormat): Promise<RenderedExport> {
  const row = await findOrThrow(ctx, id);
  const def = storedDefinition(row.definition);
  // The reader's own scope, whoever saved it.
  const result = await run(ctx, def);
  return renderReport({ name: row.name, def, result, format, now: ctx.now });
}

export async function list(ctx: Ctx): Promise<SavedReportList> {
  const me = reader(ctx);
  const rows = await repo.listVisible(ctx.db, me);
  const names = new Map(
    (await repo.usersByIds(ctx.db, [...new Set(rows.flatMap((r) => r.sharedWithUserIds))])).map((u) => [u.id, u.name]),
  );
  return { items: await Promise.all(rows.map((r) => toSavedReport(ctx, r, me.userId, names))) };
}

async function findOrThrow(ctx: Ctx, id: string, forUpdate = false): Promise<repo.SavedReportRow> {
  const row = await repo.findVisible(ctx.db, { id, reader: reader(ctx), forUpdate });
  if (!row) throw new AppError('NOT_FOUND', { message: NOT_FOUND });
  return row;
}

export async function get(ctx: Ctx, id: string): Promise<SavedReport> {
  const row = await findOrThrow(ctx, id);
  return toSavedReport(ctx, row, requireAuth(ctx).userId);
}

/** People a report is shared with must exist and be active; the owner is never in the list. */
async function checkSharedUsers(ctx: Ctx, ids: readonly string[], ownerId: string): Promise<string[]> {
  const wanted = ids.filter((id) => id !== ownerId);
  const found = await repo.usersByIds(ctx.db, wanted);
  const active = new Set(found.filter((u) => u.status === 'active').map((u) => u.id));
  const missing = wanted.filter((id) => !active.has(id));
  if (missing.length) {
    const message = 'Share only with active people';
    throw new AppError('VALIDATION_ERROR', {
      message,
      details: missing.map(() => ({ path: 'sharedWithUserIds', message })),
    });
  }
  return wanted;
}

function auditView(values: {
  name: string;
  definition: unknown;
  sharedWithUserIds: string[];
  sharedWithRoles: string[];
  schedule: string;
  scheduleFormat: string;
}) {
  return {
    name: values.name,
    definition: values.definition,
    sharedWithUserIds: values.sharedWithUserIds,
    sharedWithRoles: values.sharedWithRoles,
    schedule: values.schedule,
    scheduleFormat: values.scheduleFormat,
  };
}

export async function create(ctx: Ctx, input: CreateSavedReportInput): Promise<SavedReport> {
  const me = reader(ctx);
  const auth = requireAuth(ctx);
  const sharedWithUserIds = await checkSharedUsers(ctx, input.sharedWithUserIds, me.userId);
  const id = await ctx.db.transaction(async (raw) => {
    const tx = raw as unknown as typeof ctx.db;
    const values = {
      ownerId: me.userId,
      name: input.name,
      description: input.description ?? null,
      definition: input.definition,
      sharedWithUserIds,
      sharedWithRoles: input.sharedWithRoles,
      schedule: input.schedule,
      scheduleFormat: input.scheduleFormat,
      nextRunAt: nextRunAt(input.schedule, ctx.now, await personTimeZone(tx, me.userId)),
      createdAt: ctx.now,
      updatedAt: ctx.now,
    };
    const newId = await repo.insertSavedReport(tx, values);
    await writeAudit(
      tx,
      {
        actorId: auth.userId,
        action: 'report.created',
        entityType: 'saved_report',
        entityId: newId,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        after: auditView(values),
      },
      ctx.now,
    );
    return newId;
  });
  return get(ctx, id);
}

export async function update(
  ctx: Ctx,
  id: string,
  input: UpdateSavedReportInput,
  expectedVersion?: number,
): Promise<SavedReport> {
  const auth = requireAuth(ctx);
  const sharedWithUserIds = input.sharedWithUserIds
    ? await checkSharedUsers(ctx, input.sharedWithUserIds, auth.userId)
    : undefined;
  await ctx.db.transaction(async (raw) => {
    const tx = raw as unknown as typeof ctx.db;
    const before = await repo.findVisible(tx, { id, reader: reader(ctx), forUpdate: true });
    if (!before) throw new AppError('NOT_FOUND', { message: NOT_FOUND });
    if (before.ownerId !== auth.userId) throw new AppError('FORBIDDEN', { message: OWNER_ONLY });
    assertVersion(before.version, expectedVersion);
    const changes: Parameters<typeof repo.updateSavedReport>[2] = { updatedAt: ctx.now };
    if (input.name !== undefined) changes.name = input.name;
    if (input.description !== undefined) changes.description = input.description ?? null;
    if (input.definition !== undefined) changes.definition = input.definition;
    if (sharedWithUserIds !== undefined) changes.sharedWithUserIds = sharedWithUserIds;
    if (input.sharedWithRoles !== undefined) changes.sharedWithRoles = input.sharedWithRoles;
    if (input.scheduleFormat !== undefined) changes.scheduleFormat = input.scheduleFormat;
    // A new schedule starts from now; an unchanged one keeps its next run.
    if (input.schedule !== undefined && input.schedule !== before.schedule) {
      changes.schedule = input.schedule;
      changes.nextRunAt = nextRunAt(input.schedule, ctx.now, before.ownerTimeZone);
    }
    await repo.updateSavedReport(tx, id, changes);
    await writeAudit(
      tx,
      {
        actorId: auth.userId,
        action: 'report.updated',
        entityType: 'saved_report',
        entityId: id,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        before: auditView(before),
        after: auditView({ ...before, ...changes } as typeof before),
      },
      ctx.now,
    );
  });
  return get(ctx, id);
}

export async function remove(ctx: Ctx, id: string, expectedVersion?: number): Promise<void> {
  const auth = requireAuth(ctx);
  await ctx.db.transaction(async (raw) => {
    const tx = raw as unknown as typeof ctx.db;
    const before = await repo.findVisible(tx, { id, reader: reader(ctx), forUpdate: true });
    if (!before) throw new AppError('NOT_FOUND', { message: NOT_FOUND });
    if (before.ownerId !== auth.userId) throw new AppError('FORBIDDEN', { message: OWNER_ONLY });
    assertVersion(before.version, expectedVersion);
    await repo.deleteSavedReport(tx, id);
    await writeAudit(
      tx,
      {
        actorId: auth.userId,
        action: 'report.deleted',
        entityType: 'saved_report',
        entityId: id,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        before: auditView(before),
      },
      ctx.now,
    );
  });
}
