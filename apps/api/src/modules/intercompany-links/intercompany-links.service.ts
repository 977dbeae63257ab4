import type {
  IntercompanyCandidate,
  IntercompanyLink,
  IntercompanyLinkExportQuery,
  IntercompanyLinkQuery,
  LinkIntercompanyInput,
  Paginated,
} from '@outlay/contracts';
import { AppError } from '../../lib/app-error.ts';
import { requireAuth, type Ctx } from '../../lib/context.ts';
import { page } from '../../lib/lists.ts';
import * as repo from './intercompany-links.repository.ts';
import { audit, canSee, invalid, managedOrg, notFound, readableOrg, organizationById } from '../organizations/index.ts';

/**
 * Intercompany links: a vendor of one group company that is itself another group company.
 * Vendor rows belong to the vendors module; only `intercompanyOrganizationId` is read and set here.
 */
export async function listIntercompanyLinks(
  ctx: Ctx,
  query: IntercompanyLinkQuery,
): Promise<Paginated<IntercompanyLink>> {
  const scopeOrg = readableOrg(requireAuth(ctx));
  const { rows, total } = await repo.findIntercompanyLinks(ctx.db, { query, visibleOrg: scopeOrg });
  return page(rows, total, query);
}

export async function exportIntercompanyLinks(
  ctx: Ctx,
  query: IntercompanyLinkExportQuery,
): Promise<IntercompanyLink[]> {
  const scopeOrg = readableOrg(requireAuth(ctx));
  return (await repo.findIntercompanyLinks(ctx.db, { query, visibleOrg: scopeOrg })).rows;
}

export async function listIntercompanyCandidates(
  ctx: Ctx,
  query: { organizationId?: string; q?: string },
): Promise<{ items: IntercompanyCandidate[] }> {
  const scopeOrg = managedOrg(requireAuth(ctx));
  return { items: await repo.findIntercompanyCandidates(ctx.db, { ...query, visibleOrg: scopeOrg }) };
}

async function linkOf(ctx: Ctx, vendorId: string): Promise<IntercompanyLink> {
  const [link] = (await repo.findIntercompanyLinks(ctx.db, { query: { order: 'asc' }, vendorId })).rows;
  if (!link) throw notFound('Intercompany link');
  return link;
}

export async function linkIntercompany(
  ctx: Ctx,
  vendorId: string,
  input: LinkIntercompanyInput,
): Promise<IntercompanyLink> {
  const scopeOrg = managedOrg(requireAuth(ctx));
  const vendor = await repo.vendorForLink(ctx.db, vendorId);
  if (!vendor || !canSee(scopeOrg, vendor.organizationId)) throw notFound('Vendor');
  const target = await organizationById(ctx.db, input.intercompanyOrganizationId);
  if (!target) throw invalid('intercompanyOrganizationId', 'The group company does not exist');
  if (!target.active) throw invalid('intercompanyOrganizationId', `${target.name} is inactive`);
  if (target.id === vendor.organizationId) {
    throw invalid('intercompanyOrganizationId', 'A vendor cannot be linked to the organization that buys from it');
  }
  if (vendor.intercompanyOrganizationId === target.id) {
    throw new AppError('CONFLICT', { message: `${vendor.name} is already linked to ${target.name}` });
  }
  await ctx.db.transaction(async (tx) => {
    await repo.setVendorIntercompany(tx, { vendorId, organizationId: target.id });
    await audit(tx, ctx, {
      action: 'intercompany.linked',
      entityType: 'vendor',
      entityId: vendorId,
      before: { intercompanyOrganizationId: vendor.intercompanyOrganizationId },
      after: { intercompanyOrganizationId: target.id },
    });
  });
  return linkOf(ctx, vendorId);
}

export async function unlinkIntercompany(ctx: Ctx, vendorId: string): Promise<void> {
  const scopeOrg = managedOrg(requireAuth(ctx));
  const vendor = await repo.vendorForLink(ctx.db, vendorId);
  if (!vendor || !canSee(scopeOrg, vendor.organizationId)) throw notFound('Vendor');
  if (!vendor.intercompanyOrganizationId) throw notFound('Intercompany link');
  await ctx.db.transaction(async (tx) => {
    await repo.setVendorIntercompany(tx, { vendorId, organizationId: null });
    await audit(tx, ctx, {
      action: 'intercompany.unlinked',
      entityType: 'vendor',
      entityId: vendorId,
      before: { intercompanyOrganizationId: vendor.intercompanyOrganizationId },
      after: { intercompanyOrganizationId: null },
    });
  });
}

export const intercompanyExportColumns = [
  { header: 'Vendor', value: (l: IntercompanyLink) => l.vendorName },
  { header: 'Vendor tax id', value: (l: IntercompanyLink) => l.vendorTaxId },
  { header: 'Buying organization', value: (l: IntercompanyLink) => l.organizationName },
  { header: 'Group company', value: (l: IntercompanyLink) => l.intercompanyOrganizationName },
];
