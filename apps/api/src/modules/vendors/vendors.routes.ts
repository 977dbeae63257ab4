import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  createVendorInput,
  errorResponse,
  idParam,
  updateVendorInput,
  vendorDetail,
  vendorExportQuery,
  vendorList,
  vendorListQuery,
  vendorOrganizations,
  vendorStatusInput,
} from '@outlay/contracts';
import { contextOf, type AppDeps } from '../../lib/context.ts';
import { exportRoute, getVersionedRoute, listRoute } from '../../lib/list-routes.ts';
import { expectedVersion, versionConflictResponse, withEtag } from '../../lib/versions.ts';
import * as service from './vendors.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };
const access = { access: 'vendors.manage' as const };

export async function vendorsRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  listRoute(r, deps, '/api/vendors', service.listVendors, {
    config: access,
    tags: ['vendors'],
    summary: "Vendors in the caller's scope: search by name or tax ID, filter by status, organization, currency",
    querystring: vendorListQuery,
    response: { 200: vendorList, ...errors },
  });
  exportRoute(r, deps, '/api/vendors/export', service.exportVendors, {
    config: access,
    tags: ['vendors'],
    summary: 'All matching vendors as CSV or XLSX (bank accounts masked)',
    querystring: vendorExportQuery,
    filename: 'vendors',
    columns: service.EXPORT_COLUMNS,
  });
  r.get(
    '/api/vendors/organizations',
    {
      config: access,
      schema: {
        tags: ['vendors'],
        summary: 'Organizations the caller may keep vendors for',
        response: { 200: vendorOrganizations, ...errors },
      },
    },
    async (request) => service.vendorOrganizations(contextOf(request, deps)),
  );
  getVersionedRoute(r, deps, '/api/vendors/:id', (ctx, { id }) => service.getVendor(ctx, id), {
    config: access,
    tags: ['vendors'],
    summary: 'One vendor with its latest status change',
    params: idParam,
    response: { 200: vendorDetail, ...errors },
  });
  r.post(
    '/api/vendors',
    {
      config: access,
      schema: {
        tags: ['vendors'],
        summary:
          'Create a vendor (pending verification); the bank account is sealed and only its last four characters are shown',
        body: createVendorInput,
        response: { 201: vendorDetail, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(withEtag(reply, await service.createVendor(contextOf(request, deps), request.body))),
  );
  r.patch(
    '/api/vendors/:id',
    {
      config: access,
      schema: {
        tags: ['vendors'],
        summary:
          "Update a vendor's details; with If-Match, only if the vendor is still at that version (412 otherwise). A change of the bank account on file waits for another vendor manager's confirmation",
        params: idParam,
        body: updateVendorInput,
        response: { 200: vendorDetail, ...errors, ...versionConflictResponse },
      },
    },
    async (request, reply) =>
      withEtag(
        reply,
        await service.updateVendor(contextOf(request, deps), request.params.id, request.body, expectedVersion(request)),
      ),
  );
  r.post(
    '/api/vendors/:id/bank-change/confirm',
    {
      config: access,
      schema: {
        tags: ['vendors'],
        summary:
          "Confirm a vendor's pending bank account change so payments go to it (not by the one who asked for it; needs a recent password confirmation); the vendor's contact is told",
        params: idParam,
        response: { 200: vendorDetail, ...errors },
      },
    },
    async (request, reply) =>
      withEtag(reply, await service.confirmBankChange(contextOf(request, deps), request.params.id)),
  );
  r.delete(
    '/api/vendors/:id/bank-change',
    {
      config: access,
      schema: {
        tags: ['vendors'],
        summary: "Discard a vendor's pending bank account change; the account on file stays",
        params: idParam,
        response: { 200: vendorDetail, ...errors },
      },
    },
    async (request, reply) =>
      withEtag(reply, await service.discardBankChange(contextOf(request, deps), request.params.id)),
  );
  r.post(
    '/api/vendors/:id/status',
    {
      config: access,
      schema: {
        tags: ['vendors'],
        summary: 'Verify, block (with a reason) or unblock a vendor',
        params: idParam,
        body: vendorStatusInput,
        response: { 200: vendorDetail, ...errors, ...versionConflictResponse },
      },
    },
    async (request, reply) =>
      withEtag(
        reply,
        await service.setVendorStatus(
          contextOf(request, deps),
          request.params.id,
          request.body,
          expectedVersion(request),
        ),
      ),
  );
}
