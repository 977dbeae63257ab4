import { eq } from 'drizzle-orm';
import { fxRates } from '@outlay/db';
import type {
  CreateFxRateValues,
  FxRate,
  FxRateExportQuery,
  FxRateListQuery,
  Paginated,
  UpdateFxRateInput,
} from '@outlay/contracts';
import { AppError } from '../../lib/app-error.ts';
import { requireAuth, type Ctx } from '../../lib/context.ts';
import { page } from '../../lib/lists.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { audit, invalid, notFound, requireGroupManager } from '../organizations/index.ts';
import * as repo from './fx-rates.repository.ts';
import type { ExportAbout, ExportColumn } from '../../lib/export.ts';

type Row = typeof fxRates.$inferSelect;

function toFxRate(row: Row): FxRate {
  return { ...row, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
}

function snapshot(row: Row) {
  return {
    base: row.base,
    quote: row.quote,
    period: row.period,
    averageRate: row.averageRate,
    closingRate: row.closingRate,
  };
}

const duplicate = (key: { base: string; quote: string; period: string }) =>
  new AppError('CONFLICT', {
    message: `An FX rate for ${key.base}/${key.quote} in ${key.period} already exists; edit it instead`,
  });

function checkRange(query: { from?: string; to?: string }) {
  if (query.from && query.to && query.from > query.to)
    throw invalid('to', 'The end period must not be before the start period');
}

/** FX rates are group reference data: every signed-in person may read them. */
export async function listFxRates(ctx: Ctx, query: FxRateListQuery): Promise<Paginated<FxRate>> {
  requireAuth(ctx);
  checkRange(query);
  const { rows, total } = await repo.findFxRates(ctx.db, { query });
  return page(rows.map(toFxRate), total, query);
}

export async function exportFxRates(ctx: Ctx, query: FxRateExportQuery): Promise<FxRate[]> {
  requireAuth(ctx);
  checkRange(query);
  const { rows } = await repo.findFxRates(ctx.db, { query });
  return rows.map(toFxRate);
}

export async function createFxRate(ctx: Ctx, input: CreateFxRateValues): Promise<FxRate> {
  requireGroupManager(requireAuth(ctx));
  if (await repo.fxRateByKey(ctx.db, input)) throw duplicate(input);
  try {
    return await ctx.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(fxRates)
        .values({ ...input, createdAt: ctx.now, updatedAt: ctx.now })
        .returning();
      await audit(tx, ctx, {
        action: 'fx_rate.created',
        entityType: 'fx_rate',
        entityId: row!.id,
        after: snapshot(row!),
      });
      return toFxRate(row!);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicate(input);
    throw error;
  }
}

export async function updateFxRate(ctx: Ctx, id: string, input: UpdateFxRateInput): Promise<FxRate> {
  requireGroupManager(requireAuth(ctx));
  const current = await repo.fxRateById(ctx.db, id);
  if (!current) throw notFound('FX rate');
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(fxRates)
      .set({
        ...(input.averageRate !== undefined && { averageRate: input.averageRate }),
        ...(input.closingRate !== undefined && { closingRate: input.closingRate }),
        updatedAt: ctx.now,
      })
      .where(eq(fxRates.id, id))
      .returning();
    await audit(tx, ctx, {
      action: 'fx_rate.updated',
      entityType: 'fx_rate',
      entityId: id,
      before: snapshot(current),
      after: snapshot(row!),
    });
    return toFxRate(row!);
  });
}

/** What an export covers: the months its rates are filtered to, all of them when none. */
export function fxRateExportAbout(query: FxRateExportQuery): ExportAbout {
  return { title: 'FX rates', period: { from: query.from ?? null, to: query.to ?? null } };
}

export const fxRateExportColumns: ExportColumn<FxRate>[] = [
  { header: 'Base', value: (r: FxRate) => r.base },
  { header: 'Quote', value: (r: FxRate) => r.quote },
  { header: 'Period', value: (r: FxRate) => r.period, type: 'month' },
  { header: 'Average rate', value: (r: FxRate) => r.averageRate, type: 'number' },
  { header: 'Closing rate', value: (r: FxRate) => r.closingRate, type: 'number' },
];
