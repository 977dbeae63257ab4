import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  errorResponse,
  intercompanyCandidateQuery,
  intercompanyCandidates,
  intercompanyLink,
  intercompanyLinkExportQuery,
  intercompanyLinkQuery,
  intercompanyLinks,
  linkIntercompanyInput,
  vendorIdParam,
} from '@outlay/contracts';
import { contextOf, type AppDeps } from '../../lib/context.ts';
import { sendExport } from '../../lib/export.ts';
import * as intercompany from './intercompany-links.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };

/**
 * Intercompany links: a vendor of one group company that is itself another group company.
 * Reads need the caller's scope; changes need org.manage.
 */
export async function intercompanyLinksRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/intercompany-links',
    {
      config: { access: ['org.manage', 'settings.read'] },
      schema: {
        tags: ['organizations'],
        summary: 'Vendors that are group companies, per organization',
        querystring: intercompanyLinkQuery,
        response: { 200: intercompanyLinks, ...errors },
      },
    },
    async (request) => intercompany.listIntercompanyLinks(contextOf(request, deps), request.query),
  );
  r.get(
    '/api/intercompany-links/export',
    {
      config: { access: ['org.manage', 'settings.read'] },
      schema: {
        tags: ['organizations'],
        summary: 'Intercompany links as CSV or XLSX',
        querystring: intercompanyLinkExportQuery,
      },
    },
    async (request, reply) => {
      const ctx = contextOf(request, deps);
      const rows = await intercompany.exportIntercompanyLinks(ctx, request.query);
      return sendExport(reply, {
        format: request.query.format,
        filename: 'intercompany-links',
        columns: intercompany.intercompanyExportColumns,
        rows,
        now: ctx.now,
      });
    },
  );
  r.get(
    '/api/intercompany-links/candidates',
    {
      config: { access: 'org.manage' },
      schema: {
        tags: ['organizations'],
        summary: 'Vendors not yet linked to a group company',
        querystring: intercompanyCandidateQuery,
        response: { 200: intercompanyCandidates, ...errors },
      },
    },
    async (request) => intercompany.listIntercompanyCandidates(contextOf(request, deps), request.query),
  );
  r.put(
    '/api/intercompany-links/:vendorId',
    {
      config: { access: 'org.manage' },
      schema: {
        tags: ['organizations'],
        summary: 'Link a vendor to the group company it is',
        params: vendorIdParam,
        body: linkIntercompanyInput,
        response: { 200: intercompanyLink, ...errors },
      },
    },
    async (request) => intercompany.linkIntercompany(contextOf(request, deps), request.params.vendorId, request.body),
  );
  r.delete(
    '/api/intercompany-links/:vendorId',
    {
      config: { access: 'org.manage' },
      schema: {
        tags: ['organizations'],
        summary: "Remove a vendor's intercompany link",
        params: vendorIdParam,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await intercompany.unlinkIntercompany(contextOf(request, deps), request.params.vendorId);
      return reply.code(204).send(null);
    },
  );
}
