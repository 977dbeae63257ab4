import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  createOrganizationInput,
  errorResponse,
  idParam,
  moveOrganizationInput,
  organization,
  organizationExportQuery,
  organizationList,
  organizationListQuery,
  organizationMembers,
  organizationTree,
  updateOrganizationInput,
} from '@outlay/contracts';
import { contextOf, type AppDeps } from '../../lib/context.ts';
import { sendExport } from '../../lib/export.ts';
import * as orgs from './organizations.service.ts';
import { expectedVersion, versionConflictResponse, withEtag } from '../../lib/versions.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };
const readErrors = { 400: errorResponse, 401: errorResponse, 404: errorResponse };

/**
 * The group's structure: organizations and their hierarchy (departments and intercompany links
 * are their own modules).
 * Reads serve pickers too (any signed-in person, limited to their scope);
 * changes need org.manage.
 */
export async function organizationsRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  // --- Organizations ---------------------------------------------------------------------------
  r.get(
    '/api/organizations',
    {
      config: { access: 'authenticated', apiKeyScope: 'any' },
      schema: {
        tags: ['organizations'],
        summary: "Organizations in the caller's scope",
        querystring: organizationListQuery,
        response: { 200: organizationList, ...readErrors },
      },
    },
    async (request) => orgs.listOrganizations(contextOf(request, deps), request.query),
  );
  r.get(
    '/api/organizations/export',
    {
      config: { access: 'authenticated', apiKeyScope: 'any' },
      schema: {
        tags: ['organizations'],
        summary: 'Organizations as CSV or XLSX',
        querystring: organizationExportQuery,
      },
    },
    async (request, reply) => {
      const ctx = contextOf(request, deps);
      const rows = await orgs.exportOrganizations(ctx, request.query);
      return sendExport(reply, {
        format: request.query.format,
        filename: 'organizations',
        columns: orgs.organizationExportColumns,
        rows,
        now: ctx.now,
      });
    },
  );
  r.get(
    '/api/organizations/tree',
    {
      config: { access: 'authenticated', apiKeyScope: 'any' },
      schema: {
        tags: ['organizations'],
        summary: "The hierarchy of the organizations in the caller's scope",
        response: { 200: organizationTree, 401: errorResponse },
      },
    },
    async (request) => orgs.organizationTree(contextOf(request, deps)),
  );
  r.get(
    '/api/organizations/:id',
    {
      config: { access: 'authenticated', apiKeyScope: 'any' },
      schema: {
        tags: ['organizations'],
        summary: 'One organization',
        params: idParam,
        response: { 200: organization, ...readErrors },
      },
    },
    async (request, reply) => withEtag(reply, await orgs.getOrganization(contextOf(request, deps), request.params.id)),
  );
  r.get(
    '/api/organizations/:id/members',
    {
      config: { access: 'org.manage' },
      schema: {
        tags: ['organizations'],
        summary: 'Active people of an organization (department-head picker)',
        params: idParam,
        response: { 200: organizationMembers, ...errors },
      },
    },
    async (request) => orgs.organizationMembers(contextOf(request, deps), request.params.id),
  );
  r.post(
    '/api/organizations',
    {
      config: { access: 'org.manage' },
      schema: {
        tags: ['organizations'],
        summary: 'Create a subsidiary',
        body: createOrganizationInput,
        response: { 201: organization, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await orgs.createOrganization(contextOf(request, deps), request.body)),
  );
  r.patch(
    '/api/organizations/:id',
    {
      config: { access: 'org.manage' },
      schema: {
        tags: ['organizations'],
        summary:
          'Update an organization and its settings; with If-Match, only if the organization is still at that version (412 otherwise)',
        params: idParam,
        body: updateOrganizationInput,
        response: { 200: organization, ...errors, ...versionConflictResponse },
      },
    },
    async (request, reply) =>
      withEtag(
        reply,
        await orgs.updateOrganization(
          contextOf(request, deps),
          request.params.id,
          request.body,
          expectedVersion(request),
        ),
      ),
  );
  r.post(
    '/api/organizations/:id/move',
    {
      config: { access: 'org.manage' },
      schema: {
        tags: ['organizations'],
        summary: 'Move a subsidiary under another parent',
        params: idParam,
        body: moveOrganizationInput,
        response: { 200: organization, ...errors, ...versionConflictResponse },
      },
    },
    async (request, reply) =>
      withEtag(
        reply,
        await orgs.moveOrganization(
          contextOf(request, deps),
          request.params.id,
          request.body,
          expectedVersion(request),
        ),
      ),
  );
}
