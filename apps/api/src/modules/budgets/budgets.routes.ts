import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  BUDGET_IMPORT_MAX_CHARS,
  budgetAdjustmentList,
  budgetImpact,
  budgetImpactQuery,
  budgetImportInput,
  budgetImportResult,
  budgetLine,
  budgetLineExportQuery,
  budgetLineList,
  budgetLineListQuery,
  budgetLineRequests,
  budgetLineRequestsQuery,
  budgetOptions,
  budgetOverrunList,
  budgetOverrunListQuery,
  budgetVsActual,
  budgetVsActualQuery,
  copyBudgetPeriodInput,
  copyBudgetPeriodResult,
  createBudgetLineInput,
  errorResponse,
  idParam,
  updateBudgetLineInput,
} from '@outlay/contracts';
import { contextOf, type AppDeps } from '../../lib/context.ts';
import { exportRoute, getRoute, getVersionedRoute, listRoute } from '../../lib/list-routes.ts';
import { expectedVersion, versionConflictResponse, withEtag } from '../../lib/versions.ts';
import * as adjustments from './budgets.adjustments.ts';
import * as impact from './budgets.impact.ts';
import * as importer from './budgets.import.ts';
import * as overruns from './budgets.overruns.ts';
import * as service from './budgets.service.ts';
import * as vsActual from './budgets.vs-actual.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };
const read = { access: 'budgets.read' as const };
const manage = { access: 'budgets.manage' as const };
const overrun = { access: 'budgets.approve_overrun' as const };
const tags = ['budgets'];

export async function budgetsRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  listRoute(r, deps, '/api/budgets/lines', service.listLines, {
    config: read,
    tags,
    summary:
      "Budget lines in the caller's scope with committed, actual, remaining and % used; filter by organization, department, category, period type and a date within the period",
    querystring: budgetLineListQuery,
    response: { 200: budgetLineList, ...errors },
  });
  exportRoute(r, deps, '/api/budgets/lines/export', service.exportLines, {
    config: read,
    tags,
    summary: 'All matching budget lines with their consumption as CSV or XLSX',
    querystring: budgetLineExportQuery,
    filename: 'budget-lines',
    columns: service.EXPORT_COLUMNS,
  });
  r.get(
    '/api/budgets/options',
    {
      config: read,
      schema: {
        tags,
        summary: 'Organizations, departments, categories and currencies the budget screens choose from',
        response: { 200: budgetOptions, ...errors },
      },
    },
    async (request) => service.budgetOptions(contextOf(request, deps)),
  );
  listRoute(r, deps, '/api/budgets/vs-actual', vsActual.budgetVsActual, {
    config: read,
    tags,
    summary:
      'Budget, committed, actual, remaining, variance and % per line for a period and scope, with totals in the group currency',
    querystring: budgetVsActualQuery,
    response: { 200: budgetVsActual, ...errors },
  });
  getVersionedRoute(r, deps, '/api/budgets/lines/:id', (ctx, { id }) => service.getLine(ctx, id), {
    config: read,
    tags,
    summary: 'One budget line with its consumption',
    params: idParam,
    response: { 200: budgetLine, ...errors },
  });
  r.get(
    '/api/budgets/lines/:id/requests',
    {
      config: read,
      schema: {
        tags,
        summary: 'The requests that consume a budget line (drill-down)',
        params: idParam,
        querystring: budgetLineRequestsQuery,
        response: { 200: budgetLineRequests, ...errors },
      },
    },
    async (request) => vsActual.lineRequests(contextOf(request, deps), request.params.id, request.query),
  );
  getRoute(r, deps, '/api/budgets/lines/:id/adjustments', (ctx, { id }) => adjustments.listAdjustments(ctx, id), {
    config: read,
    tags,
    summary: "A budget line's raises made with approved overruns, newest first",
    params: idParam,
    response: { 200: budgetAdjustmentList, ...errors },
  });
  listRoute(r, deps, '/api/budgets/impact', impact.impactForDraft, {
    config: { access: 'requests.create' },
    tags,
    summary:
      'Budget impact of a request being written: the lines it would consume if submitted on the date (today by default), remaining before and after, and how far over',
    querystring: budgetImpactQuery,
    response: { 200: budgetImpact, ...errors },
  });
  r.post(
    '/api/budgets/lines',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Create a budget line',
        body: createBudgetLineInput,
        response: { 201: budgetLine, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(withEtag(reply, await service.createLine(contextOf(request, deps), request.body))),
  );
  r.patch(
    '/api/budgets/lines/:id',
    {
      config: manage,
      schema: {
        tags,
        summary:
          "Change a budget line's amount, currency, thresholds, owners or notes; with If-Match, only if the line is still at that version (412 otherwise)",
        params: idParam,
        body: updateBudgetLineInput,
        response: { 200: budgetLine, ...errors, ...versionConflictResponse },
      },
    },
    async (request, reply) =>
      withEtag(
        reply,
        await service.updateLine(contextOf(request, deps), request.params.id, request.body, expectedVersion(request)),
      ),
  );
  r.delete(
    '/api/budgets/lines/:id',
    {
      config: manage,
      schema: { tags, summary: 'Delete a budget line', params: idParam, response: { 204: z.null(), ...errors } },
    },
    async (request, reply) => {
      await service.deleteLine(contextOf(request, deps), request.params.id);
      return reply.code(204).send(null);
    },
  );
  r.post(
    '/api/budgets/lines/copy',
    {
      config: manage,
      schema: {
        tags,
        summary:
          'Copy every line of a period into the next one, amounts optionally scaled by a percentage; lines that already exist are reported and left alone',
        body: copyBudgetPeriodInput,
        response: { 200: copyBudgetPeriodResult, ...errors },
      },
    },
    async (request) => service.copyPeriod(contextOf(request, deps), request.body),
  );
  r.post(
    '/api/budgets/lines/import',
    {
      config: manage,
      bodyLimit: BUDGET_IMPORT_MAX_CHARS * 3,
      schema: {
        tags,
        summary:
          'Import budget lines from CSV or XLSX: preview (dryRun) gives a per-row report; any failing row imports nothing',
        body: budgetImportInput,
        response: { 200: budgetImportResult, 201: budgetImportResult, ...errors },
      },
    },
    async (request, reply) => {
      const result = await importer.importLines(contextOf(request, deps), request.body);
      return reply.code(result.dryRun ? 200 : 201).send(result);
    },
  );
  listRoute(r, deps, '/api/budgets/overruns', overruns.listOverruns, {
    config: overrun,
    tags,
    summary: "Budget overruns in the caller's scope, pending or decided",
    querystring: budgetOverrunListQuery,
    response: { 200: budgetOverrunList, ...errors },
  });
}
