// Schemas for monthly FX rates (docs/product.md §3.9 "Organization and people").
import { z } from 'zod';
import { currencyCode, exportQuery, listQuery, paginated } from './lists.ts';
import { currencyField } from './fields.ts';

export const fxPeriod = z
  .string()
  .trim()
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'Use a period such as 2026-01 (year and month)');
export const fxRateValue = (label: string) =>
  z
    .string()
    .trim()
    .regex(/^\d{1,10}(\.\d{1,8})?$/, `${label} must be a positive number with at most 8 decimals`)
    .refine((v) => /[1-9]/.test(v), `${label} must be greater than zero`);

export const fxRate = z.object({
  id: z.string(),
  base: z.string(),
  quote: z.string(),
  period: z.string(),
  averageRate: z.string(),
  closingRate: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type FxRate = z.infer<typeof fxRate>;
const fxFilters = {
  base: currencyCode.optional(),
  quote: currencyCode.optional(),
  from: fxPeriod.optional(),
  to: fxPeriod.optional(),
};
export const fxRateListQuery = listQuery.extend(fxFilters);
export type FxRateListQuery = z.infer<typeof fxRateListQuery>;
export const fxRateExportQuery = exportQuery.extend(fxFilters);
export type FxRateExportQuery = z.infer<typeof fxRateExportQuery>;
export const fxRateList = paginated(fxRate);

export const createFxRateInput = z
  .object({
    base: currencyField,
    quote: currencyField,
    period: fxPeriod,
    averageRate: fxRateValue('Average rate'),
    closingRate: fxRateValue('Closing rate'),
  })
  .refine((v) => v.base !== v.quote, { message: 'Base and quote currencies must differ', path: ['quote'] });
export type CreateFxRateInput = z.input<typeof createFxRateInput>;
export type CreateFxRateValues = z.output<typeof createFxRateInput>;
export const updateFxRateInput = z
  .object({ averageRate: fxRateValue('Average rate'), closingRate: fxRateValue('Closing rate') })
  .partial()
  .refine((v) => v.averageRate !== undefined || v.closingRate !== undefined, 'Nothing to change');
export type UpdateFxRateInput = z.infer<typeof updateFxRateInput>;
