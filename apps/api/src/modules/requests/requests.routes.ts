import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ATTACHMENT_MAX_BYTES,
  attachment,
  budgetImpact,
  commentInput,
  createRequestInput,
  errorResponse,
  fxQuote,
  fxQuoteQuery,
  idParam,
  myRequestsExportQuery,
  myRequestsQuery,
  requestComment,
  requestDetail,
  requestExportQuery,
  requestFormOptions,
  requestList,
  requestListQuery,
  updateRequestInput,
  vendorFilterOptions,
  vendorFilterOptionsQuery,
  vendorOptions,
  vendorOptionsQuery,
} from '@outlay/contracts';
import { contextOf, type AppDeps } from '../../lib/context.ts';
import { sendExport } from '../../lib/export.ts';
import { fastSerializerCompiler } from '../../lib/fast-serializer.ts';
import { idempotencyKeyOf } from '../../lib/idempotency.ts';
import { receiveFile } from '../../lib/uploads.ts';
import { expectedVersion, versionConflictResponse, withEtag } from '../../lib/versions.ts';
import * as attachments from './attachments.ts';
import * as detail from './requests.detail.ts';
import * as form from './requests.form.ts';
import * as list from './requests.list.ts';
import * as service from './requests.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };
const attachmentParams = z.object({ id: z.uuid('Not a valid id'), aid: z.uuid('Not a valid id') });
const tags = ['requests'];

/** RFC 6266 / 5987: an ASCII fallback plus the exact UTF-8 name. */
function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `inline; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}

export async function requestsRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  // Encapsulated: only this plugin's routes parse multipart bodies.
  await app.register(multipart, { limits: { fileSize: ATTACHMENT_MAX_BYTES, files: 1, fields: 5, parts: 6 } });
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/requests/options',
    {
      config: { access: 'requests.create' },
      schema: {
        tags,
        summary: 'What the request form offers: departments, categories, currencies',
        response: { 200: requestFormOptions, ...errors },
      },
    },
    async (request) => form.formOptions(contextOf(request, deps)),
  );
  r.get(
    '/api/requests/vendor-options',
    {
      config: { access: 'requests.create' },
      schema: {
        tags,
        summary: "Vendors of the caller's organization a request can name (blocked ones flagged)",
        querystring: vendorOptionsQuery,
        response: { 200: vendorOptions, ...errors },
      },
    },
    async (request) => form.vendorOptions(contextOf(request, deps), request.query.q),
  );
  r.get(
    '/api/requests/vendor-filter-options',
    {
      config: { access: 'requests.read.scope' },
      schema: {
        tags,
        summary: "Vendors of the organizations whose requests the caller reads, for the requests list's vendor filter",
        querystring: vendorFilterOptionsQuery,
        response: { 200: vendorFilterOptions, ...errors },
      },
    },
    async (request) => form.vendorFilterOptions(contextOf(request, deps), request.query.organizationId),
  );
  r.get(
    '/api/requests/fx-quote',
    {
      config: { access: 'requests.create' },
      schema: {
        tags,
        summary: "An amount converted to the organization's and the group's currency with the FX table",
        querystring: fxQuoteQuery,
        response: { 200: fxQuote, ...errors },
      },
    },
    async (request) => form.fxQuote(contextOf(request, deps), request.query),
  );
  r.post(
    '/api/requests',
    {
      config: { access: 'requests.create' },
      schema: {
        tags,
        summary: 'Create a draft request; an Idempotency-Key header makes a retry create nothing new',
        body: createRequestInput,
        response: { 201: requestDetail, ...errors },
      },
    },
    async (request, reply) => {
      const outcome = await service.createRequest(
        contextOf(request, deps),
        request.body,
        idempotencyKeyOf(request.headers),
      );
      if (outcome.replayed) reply.header('Idempotent-Replayed', 'true');
      return reply.code(outcome.status).send(outcome.body);
    },
  );
  r.get(
    '/api/requests/mine',
    {
      config: { access: 'requests.read.own' },
      schema: {
        tags,
        summary: "The caller's own requests",
        querystring: myRequestsQuery,
        response: { 200: requestList, ...errors },
      },
      // The request pages are the hottest reads: written from the same schema without zod's encode.
      serializerCompiler: fastSerializerCompiler,
    },
    async (request) => list.listMine(contextOf(request, deps), request.query),
  );
  r.get(
    '/api/requests/mine/export',
    {
      config: { access: 'requests.read.own' },
      schema: {
        tags,
        summary: "All of the caller's own matching requests as CSV or XLSX",
        querystring: myRequestsExportQuery,
      },
    },
    async (request, reply) => {
      const ctx = contextOf(request, deps);
      const rows = await list.exportMine(ctx, request.query);
      return sendExport(reply, {
        format: request.query.format,
        filename: 'my-requests',
        columns: list.EXPORT_COLUMNS,
        rows,
        now: ctx.now,
        about: list.exportMineAbout(request.query),
      });
    },
  );
  r.get(
    '/api/requests',
    {
      config: { access: 'requests.read.scope' },
      schema: {
        tags,
        summary: "Requests in the caller's scope with filters",
        querystring: requestListQuery,
        response: { 200: requestList, ...errors },
      },
      serializerCompiler: fastSerializerCompiler,
    },
    async (request) => list.listInScope(contextOf(request, deps), request.query),
  );
  r.get(
    '/api/requests/export',
    {
      config: { access: 'requests.read.scope' },
      schema: {
        tags,
        summary: "All matching requests in the caller's scope as CSV or XLSX",
        querystring: requestExportQuery,
      },
    },
    async (request, reply) => {
      const ctx = contextOf(request, deps);
      const [rows, about] = await Promise.all([
        list.exportInScope(ctx, request.query),
        list.exportInScopeAbout(ctx, request.query),
      ]);
      return sendExport(reply, {
        format: request.query.format,
        filename: 'requests',
        columns: list.EXPORT_COLUMNS,
        rows,
        now: ctx.now,
        about,
      });
    },
  );
  r.get(
    '/api/requests/:id',
    {
      config: { access: 'requests.read.own' },
      schema: {
        tags,
        summary: "One request with its items, route, timeline, audit and the caller's possible actions",
        params: idParam,
        response: { 200: requestDetail, ...errors },
      },
      serializerCompiler: fastSerializerCompiler,
    },
    async (request, reply) =>
      withEtag(reply, await detail.getRequestDetail(contextOf(request, deps), request.params.id)),
  );
  r.get(
    '/api/requests/:id/budget-impact',
    {
      config: { access: 'requests.read.own' },
      schema: {
        tags,
        summary:
          'Budget impact of a request the caller can see: the lines it consumes, remaining before and after it, and how far over',
        params: idParam,
        response: { 200: budgetImpact, ...errors },
      },
    },
    async (request) => detail.budgetImpactOf(contextOf(request, deps), request.params.id),
  );
  r.patch(
    '/api/requests/:id',
    {
      config: { access: 'requests.create' },
      schema: {
        tags,
        summary:
          'Edit a draft or a request waiting for information (requester only); with If-Match, only if the request is still at that version (412 otherwise)',
        params: idParam,
        body: updateRequestInput,
        response: { 200: requestDetail, ...errors, ...versionConflictResponse },
      },
    },
    async (request, reply) =>
      withEtag(
        reply,
        await service.updateRequest(
          contextOf(request, deps),
          request.params.id,
          request.body,
          expectedVersion(request),
        ),
      ),
  );
  r.post(
    '/api/requests/:id/comments',
    {
      config: { access: 'requests.read.own' },
      schema: {
        tags,
        summary: 'Comment on a request',
        params: idParam,
        body: commentInput,
        response: { 201: requestComment, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await service.addComment(contextOf(request, deps), request.params.id, request.body.body)),
  );
  r.post(
    '/api/requests/:id/attachments',
    {
      config: { access: 'requests.create' },
      schema: {
        tags,
        summary: 'Attach one image or PDF (multipart field "file", at most 10 MB; the type is checked by content)',
        consumes: ['multipart/form-data'],
        params: idParam,
        response: { 201: attachment, ...errors, 413: errorResponse },
      },
    },
    async (request, reply) => {
      const ctx = contextOf(request, deps);
      const file = await receiveFile(request, { what: 'the file', missing: 'Choose a file to attach' }, () =>
        attachments.precheckAttach(ctx, request.params.id),
      );
      const upload = await attachments.readUpload(file);
      return reply.code(201).send(await attachments.addAttachment(ctx, request.params.id, upload));
    },
  );
  for (const which of ['content', 'thumbnail'] as const) {
    r.get(
      `/api/requests/:id/attachments/:aid/${which}`,
      {
        config: { access: 'requests.read.own' },
        schema: {
          tags,
          summary: which === 'content' ? 'The attached file' : 'A small JPEG preview of an attached image',
          params: attachmentParams,
        },
      },
      async (request, reply) => {
        const file = await attachments.openAttachment(
          contextOf(request, deps),
          request.params.id,
          request.params.aid,
          which,
        );
        reply
          .header('Content-Disposition', contentDisposition(file.fileName))
          .header('X-Content-Type-Options', 'nosniff')
          // Receipts are personal documents: no browser or proxy keeps a copy (as for every /api answer).
          .header('Cache-Control', 'no-store')
          .header('Content-Length', String(file.size))
          .type(file.contentType);
        return reply.send(file.stream);
      },
    );
  }
  r.delete(
    '/api/requests/:id/attachments/:aid',
    {
      config: { access: 'requests.create' },
      schema: {
        tags,
        summary: 'Remove an attachment (requester, draft or waiting for information)',
        params: attachmentParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await attachments.removeAttachment(contextOf(request, deps), request.params.id, request.params.aid);
      return reply.code(204).send(null);
    },
  );
}
