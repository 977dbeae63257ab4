import { and, eq, isNull, or } from 'drizzle-orm';
import { organizations, users, type Db } from '@outlay/db';
import type {
  CreateOrganizationValues,
  MoveOrganizationInput,
  Organization,
  OrganizationExportQuery,
  OrganizationListQuery,
  OrganizationMember,
  OrganizationTree,
  OrganizationTreeNode,
  Paginated,
  UpdateOrganizationValues,
} from '@outlay/contracts';
import { AppError } from '../../lib/app-error.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { actorOf, auditChange } from '../../lib/audit.ts';
import { requireAuth, type AuthInfo, type Ctx } from '../../lib/context.ts';
import { page } from '../../lib/lists.ts';
import { readScopeOf, requirePermission } from '../../lib/scope.ts';
import { assertVersion, nextVersion, versionConflict, versionIs } from '../../lib/versions.ts';
import * as repo from './organizations.repository.ts';
import { retimeSchedules } from '../profile/index.ts';
import type { ExportColumn } from '../../lib/export.ts';

// ------------------------------------------------------------------------------------------------
// Scope helpers shared by the module's services
// ------------------------------------------------------------------------------------------------

/**
 * Which organization's rows a reader sees: `undefined` for the whole group (group-scope roles
 * and group administrators), otherwise the caller's own organization only (`null`: none).
 */
export function visibleOrg(auth: AuthInfo): string | null | undefined {
  if (auth.scope === 'group' || auth.grants['org.manage'] === 'group') return undefined;
  return auth.organizationId;
}

/** The organization a manager may change: `undefined` for a group-scope manager, else their own. */
export function managedOrg(auth: AuthInfo): string | null | undefined {
  const scope = requirePermission(auth, 'org.manage');
  return scope === 'group' ? undefined : auth.organizationId;
}

/** The organization whose rows a manager or a settings reader may read: `undefined` for group scope, else their own. */
export function readableOrg(auth: AuthInfo): string | null | undefined {
  const scope = readScopeOf(auth, 'org.manage');
  if (!scope) throw new AppError('FORBIDDEN', { message: 'You do not have permission to do this' });
  return scope === 'group' ? undefined : auth.organizationId;
}

/** Group-wide changes (new companies, the hierarchy, categories, FX rates) need org.manage at group scope. */
export function requireGroupManager(auth: AuthInfo): void {
  if (managedOrg(auth) !== undefined) {
    throw new AppError('FORBIDDEN', { message: 'Only a group administrator can do this' });
  }
}

export function canSee(scopeOrg: string | null | undefined, organizationId: string | null): boolean {
  return scopeOrg === undefined || (scopeOrg !== null && scopeOrg === organizationId);
}

export function notFound(what: string): AppError {
  return new AppError('NOT_FOUND', { message: `${what} not found` });
}

export function invalid(path: string, message: string): AppError {
  return new AppError('VALIDATION_ERROR', { message, details: [{ path, message }] });
}

export async function audit(
  tx: Db,
  ctx: Ctx,
  event: {
    action: string;
    entityType: string;
    entityId: string;
    before?: unknown;
    after?: unknown;
    metadata?: unknown;
  },
): Promise<void> {
  await auditChange(tx, actorOf(ctx), event);
}

/** Walks parent links from `start` upward; true when `target` is reached (so making target the child of start would loop). */
export function reaches(parents: Map<string, string | null>, start: string, target: string): boolean {
  const seen = new Set<string>();
  let current: string | null | undefined = start;
  while (current) {
    if (current === target) return true;
    if (seen.has(current)) return true;
    seen.add(current);
    current = parents.get(current) ?? null;
  }
  return false;
}

// ------------------------------------------------------------------------------------------------
// Organizations
// ------------------------------------------------------------------------------------------------
type Settings = { approvalThreshold?: string | null; defaultWorkflowId?: string | null; [key: string]: unknown };

function toOrganization(row: repo.OrganizationRow): Organization {
  const settings = (row.settings ?? {}) as Settings;
  return {
    ...row,
    settings: {
      approvalThreshold: settings.approvalThreshold ?? null,
      defaultWorkflowId: settings.defaultWorkflowId ?? null,
    },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The stored columns an audit event records (before/after). */
function snapshot(row: typeof organizations.$inferSelect) {
  return {
    name: row.name,
    code: row.code,
    kind: row.kind,
    parentId: row.parentId,
    currency: row.currency,
    active: row.active,
    address: row.address,
    country: row.country,
    taxId: row.taxId,
    fiscalYearStartMonth: row.fiscalYearStartMonth,
    timeZone: row.timeZone,
    settings: row.settings,
  };
}

export async function listOrganizations(ctx: Ctx, query: OrganizationListQuery): Promise<Paginated<Organization>> {
  const auth = requireAuth(ctx);
  const { rows, total } = await repo.findOrganizations(ctx.db, { query, visibleOrg: visibleOrg(auth) });
  return page(rows.map(toOrganization), total, query);
}

export async function exportOrganizations(ctx: Ctx, query: OrganizationExportQuery): Promise<Organization[]> {
  const auth = requireAuth(ctx);
  const { rows } = await repo.findOrganizations(ctx.db, { query, visibleOrg: visibleOrg(auth) });
  return rows.map(toOrganization);
}

export async function getOrganization(ctx: Ctx, id: string): Promise<Organization> {
  const auth = requireAuth(ctx);
  const { rows } = await repo.findOrganizations(ctx.db, { query: { order: 'asc' }, visibleOrg: visibleOrg(auth), id });
  if (!rows[0]) throw notFound('Organization');
  return toOrganization(rows[0]);
}

export async function organizationTree(ctx: Ctx): Promise<OrganizationTree> {
  const auth = requireAuth(ctx);
  const scopeOrg = visibleOrg(auth);
  const all = (await repo.allOrganizations(ctx.db)).filter((o) => canSee(scopeOrg, o.id));
  const nodes = new Map<string, OrganizationTreeNode>(
    all.map((o) => [
      o.id,
      { id: o.id, name: o.name, code: o.code, kind: o.kind, currency: o.currency, active: o.active, children: [] },
    ]),
  );
  const roots: OrganizationTreeNode[] = [];
  // The group first, then companies by name.
  const ordered = [...all].sort((a, b) =>
    a.kind === b.kind ? a.name.localeCompare(b.name) : a.kind === 'group' ? -1 : 1,
  );
  for (const o of ordered) {
    const node = nodes.get(o.id)!;
    const parent = o.parentId ? nodes.get(o.parentId) : undefined;
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  return { roots };
}

export async function organizationMembers(ctx: Ctx, id: string): Promise<{ items: OrganizationMember[] }> {
  const auth = requireAuth(ctx);
  const org = await repo.organizationById(ctx.db, id);
  if (!org || !canSee(managedOrg(auth), org.id)) throw notFound('Organization');
  const rows = await repo.activeMembers(ctx.db, id);
  return {
    items: rows.map((u) => ({
      id: u.id,
      name: `${u.firstName} ${u.lastName}`,
      username: u.username,
      departmentId: u.departmentId,
    })),
  };
}

function mergeSettings(current: unknown, patch: UpdateOrganizationValues['settings']): Settings {
  const next: Settings = { ...((current ?? {}) as Settings) };
  if (!patch) return next;
  if (patch.approvalThreshold !== undefined) next.approvalThreshold = patch.approvalThreshold;
  if (patch.defaultWorkflowId !== undefined) next.defaultWorkflowId = patch.defaultWorkflowId;
  return next;
}

async function codeConflict(ctx: Ctx, code: string, exceptId?: string): Promise<void> {
  const existing = await repo.organizationByCode(ctx.db, code);
  if (existing && existing.id !== exceptId)
    throw new AppError('CONFLICT', { message: `An organization with code ${code} already exists` });
}

export async function createOrganization(ctx: Ctx, input: CreateOrganizationValues): Promise<Organization> {
  const auth = requireAuth(ctx);
  requireGroupManager(auth);
  let parentId = input.parentId ?? null;
  let parentZone: string;
  if (parentId) {
    const parent = await repo.organizationById(ctx.db, parentId);
    if (!parent) throw invalid('parentId', 'The parent organization does not exist');
    parentZone = parent.timeZone;
  } else {
    const group = await repo.groupOrganization(ctx.db);
    if (!group) throw new AppError('CONFLICT', { message: 'Create the group before its subsidiaries' });
    parentId = group.id;
    parentZone = group.timeZone;
  }
  await codeConflict(ctx, input.code);
  try {
    const id = await ctx.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(organizations)
        .values({
          name: input.name,
          code: input.code,
          kind: 'subsidiary',
          parentId,
          currency: input.currency,
          active: input.active ?? true,
          address: input.address ?? null,
          country: input.country ?? null,
          taxId: input.taxId ?? null,
          fiscalYearStartMonth: Number(input.fiscalYearStartMonth ?? 1),
          timeZone: input.timeZone ?? parentZone,
          settings: mergeSettings({}, input.settings),
          createdAt: ctx.now,
          updatedAt: ctx.now,
        })
        .returning();
      await audit(tx, ctx, {
        action: 'organization.created',
        entityType: 'organization',
        entityId: row!.id,
        after: snapshot(row!),
      });
      return row!.id;
    });
    return getOrganization(ctx, id);
  } catch (error) {
    if (isUniqueViolation(error))
      throw new AppError('CONFLICT', { message: `An organization with code ${input.code} already exists` });
    throw error;
  }
}

export async function updateOrganization(
  ctx: Ctx,
  id: string,
  input: UpdateOrganizationValues,
  expectedVersion?: number,
): Promise<Organization> {
  const auth = requireAuth(ctx);
  const scopeOrg = managedOrg(auth);
  const current = await repo.organizationById(ctx.db, id);
  if (!current || !canSee(scopeOrg, current.id)) throw notFound('Organization');
  assertVersion(current.version, expectedVersion);
  if (input.active === false && current.kind === 'group')
    throw invalid('active', 'The group itself cannot be deactivated');
  if (input.code !== undefined) await codeConflict(ctx, input.code, id);
  try {
    await ctx.db.transaction(async (tx) => {
      // Settings merge into the stored ones: read them under the row lock so a concurrent save is not lost.
      const [locked] = await tx.select().from(organizations).where(eq(organizations.id, id)).for('update');
      if (!locked) throw notFound('Organization');
      assertVersion(locked.version, expectedVersion);
      const [row] = await tx
        .update(organizations)
        .set({
          ...(input.name !== undefined && { name: input.name }),
          ...(input.code !== undefined && { code: input.code }),
          ...(input.currency !== undefined && { currency: input.currency }),
          ...(input.address !== undefined && { address: input.address ?? null }),
          ...(input.country !== undefined && { country: input.country ?? null }),
          ...(input.taxId !== undefined && { taxId: input.taxId ?? null }),
          ...(input.fiscalYearStartMonth !== undefined && { fiscalYearStartMonth: Number(input.fiscalYearStartMonth) }),
          ...(input.timeZone !== undefined && { timeZone: input.timeZone }),
          ...(input.active !== undefined && { active: input.active }),
          ...(input.settings !== undefined && { settings: mergeSettings(locked.settings, input.settings) }),
          updatedAt: ctx.now,
          version: nextVersion(organizations.version),
        })
        .where(and(eq(organizations.id, id), versionIs(organizations.version, expectedVersion)))
        .returning();
      if (!row) throw versionConflict();
      await audit(tx, ctx, {
        action: 'organization.updated',
        entityType: 'organization',
        entityId: id,
        before: snapshot(locked),
        after: snapshot(row),
      });
      // Its people who follow its zone (and, for the group, people of no organization) get their schedules re-timed.
      if (row.timeZone !== locked.timeZone) {
        const followers =
          row.kind === 'group'
            ? or(eq(users.organizationId, id), isNull(users.organizationId))
            : eq(users.organizationId, id);
        await retimeSchedules(tx, and(isNull(users.timeZone), followers)!, ctx.now);
      }
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw new AppError('CONFLICT', { message: `An organization with code ${input.code} already exists` });
    throw error;
  }
  return getOrganization(ctx, id);
}

export async function moveOrganization(
  ctx: Ctx,
  id: string,
  input: MoveOrganizationInput,
  expectedVersion?: number,
): Promise<Organization> {
  const auth = requireAuth(ctx);
  requireGroupManager(auth);
  const current = await repo.organizationById(ctx.db, id);
  if (!current) throw notFound('Organization');
  assertVersion(current.version, expectedVersion);
  if (current.kind === 'group') throw invalid('id', 'The group itself cannot be moved');
  const parent = await repo.organizationById(ctx.db, input.parentId);
  if (!parent) throw invalid('parentId', 'The new parent organization does not exist');
  if (parent.id === current.parentId) throw invalid('parentId', `${current.name} is already under ${parent.name}`);
  const all = await repo.allOrganizations(ctx.db);
  const parents = new Map(all.map((o) => [o.id, o.parentId]));
  if (reaches(parents, parent.id, current.id)) {
    throw invalid('parentId', `${current.name} cannot be moved under itself or one of its own subsidiaries`);
  }
  await ctx.db.transaction(async (tx) => {
    const moved = await tx
      .update(organizations)
      .set({ parentId: parent.id, updatedAt: ctx.now, version: nextVersion(organizations.version) })
      .where(and(eq(organizations.id, id), versionIs(organizations.version, expectedVersion)))
      .returning({ id: organizations.id });
    if (moved.length === 0) throw versionConflict();
    await audit(tx, ctx, {
      action: 'organization.moved',
      entityType: 'organization',
      entityId: id,
      before: { parentId: current.parentId },
      after: { parentId: parent.id },
    });
  });
  return getOrganization(ctx, id);
}

export const organizationExportColumns: ExportColumn<Organization>[] = [
  { header: 'Name', value: (o: Organization) => o.name },
  { header: 'Code', value: (o: Organization) => o.code },
  { header: 'Kind', value: (o: Organization) => o.kind },
  { header: 'Parent', value: (o: Organization) => o.parentName },
  { header: 'Currency', value: (o: Organization) => o.currency },
  { header: 'Address', value: (o: Organization) => o.address },
  { header: 'Tax id', value: (o: Organization) => o.taxId },
  { header: 'Fiscal year start month', value: (o: Organization) => o.fiscalYearStartMonth, type: 'number' },
  {
    header: 'Approval threshold',
    value: (o: Organization) => o.settings.approvalThreshold,
    type: 'money',
    currency: (o: Organization) => o.currency,
  },
  { header: 'Departments', value: (o: Organization) => o.departmentCount, type: 'number' },
  { header: 'Active', value: (o: Organization) => (o.active ? 'yes' : 'no') },
];
