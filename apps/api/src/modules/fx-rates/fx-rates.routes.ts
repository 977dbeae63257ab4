import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  createFxRateInput,
  errorResponse,
  fxRate,
  fxRateExportQuery,
  fxRateList,
  fxRateListQuery,
  idParam,
  updateFxRateInput,
} from '@outlay/contracts';
import { contextOf, type AppDeps } from '../../lib/context.ts';
import { exportRoute, listRoute } from '../../lib/list-routes.ts';
import * as fx from './fx-rates.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };
const readErrors = { 400: errorResponse, 401: errorResponse, 404: errorResponse };

/**
 * Monthly FX rates. Reads serve any signed-in person; changes need org.manage.
 */
export async function fxRatesRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  listRoute(r, deps, '/api/fx-rates', fx.listFxRates, {
    config: { access: 'authenticated', apiKeyScope: 'any' },
    tags: ['fx-rates'],
    summary: 'Monthly FX rates',
    querystring: fxRateListQuery,
    response: { 200: fxRateList, ...readErrors },
  });
  exportRoute(r, deps, '/api/fx-rates/export', fx.exportFxRates, {
    config: { access: 'authenticated', apiKeyScope: 'any' },
    tags: ['fx-rates'],
    summary: 'FX rates as CSV or XLSX',
    querystring: fxRateExportQuery,
    filename: 'fx-rates',
    columns: fx.fxRateExportColumns,
    about: (query) => fx.fxRateExportAbout(query),
  });
  r.post(
    '/api/fx-rates',
    {
      config: { access: 'org.manage' },
      schema: {
        tags: ['fx-rates'],
        summary: 'Add the rate of a currency pair for a month',
        body: createFxRateInput,
        response: { 201: fxRate, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await fx.createFxRate(contextOf(request, deps), request.body)),
  );
  r.patch(
    '/api/fx-rates/:id',
    {
      config: { access: 'org.manage' },
      schema: {
        tags: ['fx-rates'],
        summary: "Correct a month's rates",
        params: idParam,
        body: updateFxRateInput,
        response: { 200: fxRate, ...errors },
      },
    },
    async (request) => fx.updateFxRate(contextOf(request, deps), request.params.id, request.body),
  );
}
