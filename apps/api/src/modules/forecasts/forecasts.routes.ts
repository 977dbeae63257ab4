import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponse, forecastList, forecastQuery } from '@outlay/contracts';
import { contextOf, type AppDeps } from '../../lib/context.ts';
import * as service from './forecasts.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse };

export async function forecastsRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/forecasts',
    {
      // The budget lines the caller may read (their scope), like Budget vs Actual.
      config: { access: 'budgets.read' },
      schema: {
        tags: ['forecasts'],
        summary:
          'Each budget line in force forecast to the end of its period: band, overrun day, suggested next budget, and the backtest MAPE',
        querystring: forecastQuery,
        response: { 200: forecastList, ...errors },
      },
    },
    async (request) => service.listForecasts(contextOf(request, deps), request.query),
  );
}
