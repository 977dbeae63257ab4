import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createDepartmentInput,
  createOrganizationInput,
  department,
  departmentExportQuery,
  departmentList,
  departmentListQuery,
  errorResponse,
  idParam,
  intercompanyCandidateQuery,
  intercompanyCandidates,
  intercompanyLink,
  intercompanyLinkExportQuery,
  intercompanyLinkQuery,
  intercompanyLinks,
  linkIntercompanyInput,
  moveOrganizationInput,
  organization,
  organizationExportQuery,
  organizationList,
  organizationListQuery,
  organizationMembers,
  organizationTree,
  updateDepartmentInput,
  updateOrganizationInput,
  vendorIdParam,
} from '@outlay/contracts';
import { contextOf, type AppDeps } from '../../lib/context.ts';
import { exportRoute, getRoute, getVersionedRoute, listRoute } from '../../lib/list-routes.ts';
import * as departments from './departments.service.ts';
import * as intercompany from './intercompany.service.ts';
import * as orgs from './organizations.service.ts';
import { expectedVersion, versionConflictResponse, withEtag } from '../../lib/versions.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };
const readErrors = { 400: errorResponse, 401: errorResponse, 404: errorResponse };

/**
 * The group's structure: organizations and their hierarchy, departments and intercompany links.
 * Reads serve pickers too (any signed-in person, limited to their scope);
 * changes need org.manage.
 */
export async function organizationsRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  // --- Organizations ---------------------------------------------------------------------------
  listRoute(r, deps, '/api/organizations', orgs.listOrganizations, {
    config: { access: 'authenticated', apiKeyScope: 'any' },
    tags: ['organizations'],
    summary: "Organizations in the caller's scope",
    querystring: organizationListQuery,
    response: { 200: organizationList, ...readErrors },
  });
  exportRoute(r, deps, '/api/organizations/export', orgs.exportOrganizations, {
    config: { access: 'authenticated', apiKeyScope: 'any' },
    tags: ['organizations'],
    summary: 'Organizations as CSV or XLSX',
    querystring: organizationExportQuery,
    filename: 'organizations',
    columns: orgs.organizationExportColumns,
  });
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
  getVersionedRoute(r, deps, '/api/organizations/:id', (ctx, { id }) => orgs.getOrganization(ctx, id), {
    config: { access: 'authenticated', apiKeyScope: 'any' },
    tags: ['organizations'],
    summary: 'One organization',
    params: idParam,
    response: { 200: organization, ...readErrors },
  });
  getRoute(r, deps, '/api/organizations/:id/members', (ctx, { id }) => orgs.organizationMembers(ctx, id), {
    config: { access: 'org.manage' },
    tags: ['organizations'],
    summary: 'Active people of an organization (department-head picker)',
    params: idParam,
    response: { 200: organizationMembers, ...errors },
  });
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

  // --- Intercompany links ----------------------------------------------------------------------
  listRoute(r, deps, '/api/intercompany-links', intercompany.listIntercompanyLinks, {
    config: { access: ['org.manage', 'settings.read'] },
    tags: ['organizations'],
    summary: 'Vendors that are group companies, per organization',
    querystring: intercompanyLinkQuery,
    response: { 200: intercompanyLinks, ...errors },
  });
  exportRoute(r, deps, '/api/intercompany-links/export', intercompany.exportIntercompanyLinks, {
    config: { access: ['org.manage', 'settings.read'] },
    tags: ['organizations'],
    summary: 'Intercompany links as CSV or XLSX',
    querystring: intercompanyLinkExportQuery,
    filename: 'intercompany-links',
    columns: intercompany.intercompanyExportColumns,
  });
  listRoute(r, deps, '/api/intercompany-links/candidates', intercompany.listIntercompanyCandidates, {
    config: { access: 'org.manage' },
    tags: ['organizations'],
    summary: 'Vendors not yet linked to a group company',
    querystring: intercompanyCandidateQuery,
    response: { 200: intercompanyCandidates, ...errors },
  });
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

  // --- Departments -----------------------------------------------------------------------------
  listRoute(r, deps, '/api/departments', departments.listDepartments, {
    config: { access: 'authenticated', apiKeyScope: 'any' },
    tags: ['departments'],
    summary: "Departments in the caller's scope",
    querystring: departmentListQuery,
    response: { 200: departmentList, ...readErrors },
  });
  exportRoute(r, deps, '/api/departments/export', departments.exportDepartments, {
    config: { access: 'authenticated', apiKeyScope: 'any' },
    tags: ['departments'],
    summary: 'Departments as CSV or XLSX',
    querystring: departmentExportQuery,
    filename: 'departments',
    columns: departments.departmentExportColumns,
  });
  getRoute(r, deps, '/api/departments/:id', (ctx, { id }) => departments.getDepartment(ctx, id), {
    config: { access: 'authenticated', apiKeyScope: 'any' },
    tags: ['departments'],
    summary: 'One department',
    params: idParam,
    response: { 200: department, ...readErrors },
  });
  r.post(
    '/api/departments',
    {
      config: { access: 'org.manage' },
      schema: {
        tags: ['departments'],
        summary: 'Create a department',
        body: createDepartmentInput,
        response: { 201: department, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await departments.createDepartment(contextOf(request, deps), request.body)),
  );
  r.patch(
    '/api/departments/:id',
    {
      config: { access: 'org.manage' },
      schema: {
        tags: ['departments'],
        summary: 'Update or deactivate a department',
        params: idParam,
        body: updateDepartmentInput,
        response: { 200: department, ...errors },
      },
    },
    async (request) => departments.updateDepartment(contextOf(request, deps), request.params.id, request.body),
  );
}
