import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createSavedReportInput,
  errorResponse,
  exportReportInput,
  idParam,
  reportExportQuery,
  reportOptions,
  reportRecipients,
  reportRecipientsQuery,
  reportResult,
  runReportInput,
  savedReport,
  savedReportList,
  updateSavedReportInput,
} from '@outlay/contracts';
import { contextOf, type AppDeps } from '../../lib/context.ts';
import { getVersionedRoute } from '../../lib/list-routes.ts';
import { sendFile } from '../../lib/export.ts';
import { expectedVersion, versionConflictResponse, withEtag } from '../../lib/versions.ts';
import * as service from './reports.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };
const access = { access: 'reports.read' as const };

export async function reportsRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/api/reports/run',
    {
      config: access,
      schema: {
        tags: ['reports'],
        summary:
          "Run a report definition (dimensions, measures, filters) on spend in the caller's scope, in the group currency",
        body: runReportInput,
        response: { 200: reportResult, ...errors },
      },
    },
    async (request) => service.run(contextOf(request, deps), request.body.definition),
  );
  r.post(
    '/api/reports/export',
    {
      config: access,
      schema: {
        tags: ['reports'],
        summary: 'Run a report definition and answer with it as CSV, XLSX or PDF',
        body: exportReportInput,
      },
    },
    async (request, reply) =>
      sendFile(
        reply,
        await service.exportDefinition(contextOf(request, deps), request.body.definition, request.body.format),
      ),
  );
  r.get(
    '/api/reports/options',
    {
      config: access,
      schema: {
        tags: ['reports'],
        summary:
          "What the report builder can filter on: organizations, departments, categories and vendors in the caller's scope",
        response: { 200: reportOptions, ...errors },
      },
    },
    async (request) => service.options(contextOf(request, deps)),
  );
  r.get(
    '/api/reports/recipients',
    {
      config: access,
      schema: {
        tags: ['reports'],
        summary:
          'People a report can be shared with: active users who hold reports.read (search by name or e-mail, at most 20)',
        querystring: reportRecipientsQuery,
        response: { 200: reportRecipients, ...errors },
      },
    },
    async (request) => service.recipients(contextOf(request, deps), request.query.q),
  );
  r.get(
    '/api/reports',
    {
      config: access,
      schema: {
        tags: ['reports'],
        summary: 'Saved reports the caller owns or that are shared with them',
        response: { 200: savedReportList, ...errors },
      },
    },
    async (request) => service.list(contextOf(request, deps)),
  );
  r.post(
    '/api/reports',
    {
      config: access,
      schema: {
        tags: ['reports'],
        summary: 'Save a report: its definition, who it is shared with (people, roles) and an optional e-mail schedule',
        body: createSavedReportInput,
        response: { 201: savedReport, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(withEtag(reply, await service.create(contextOf(request, deps), request.body))),
  );
  getVersionedRoute(r, deps, '/api/reports/:id', (ctx, { id }) => service.get(ctx, id), {
    config: access,
    tags: ['reports'],
    summary: 'One saved report the caller owns or that is shared with them',
    params: idParam,
    response: { 200: savedReport, ...errors },
  });
  r.patch(
    '/api/reports/:id',
    {
      config: access,
      schema: {
        tags: ['reports'],
        summary: 'Change a saved report (its owner only); with If-Match, only at that version (412 otherwise)',
        params: idParam,
        body: updateSavedReportInput,
        response: { 200: savedReport, ...errors, ...versionConflictResponse },
      },
    },
    async (request, reply) =>
      withEtag(
        reply,
        await service.update(contextOf(request, deps), request.params.id, request.body, expectedVersion(request)),
      ),
  );
  r.delete(
    '/api/reports/:id',
    {
      config: access,
      schema: {
        tags: ['reports'],
        summary: 'Delete a saved report (its owner only)',
        params: idParam,
        response: { 204: z.null(), ...errors, ...versionConflictResponse },
      },
    },
    async (request, reply) => {
      await service.remove(contextOf(request, deps), request.params.id, expectedVersion(request));
      return reply.code(204).send(null);
    },
  );
  r.get(
    '/api/reports/:id/export',
    {
      config: access,
      schema: {
        tags: ['reports'],
        summary: "A saved report run with the caller's scope, as CSV, XLSX or PDF",
        params: idParam,
        querystring: reportExportQuery,
      },
    },
    async (request, reply) =>
      sendFile(reply, await service.exportSaved(contextOf(request, deps), request.params.id, request.query.format)),
  );
}
