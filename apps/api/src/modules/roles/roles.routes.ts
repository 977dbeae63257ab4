import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  assignCustomRoleInput,
  bulkRoleChangeInput,
  bulkUserResult,
  changeRoleInput,
  customRole,
  customRoleInput,
  errorResponse,
  idParam,
  listQuery,
  messageResponse,
  paginated,
  roleHolder,
  roleParam,
  rolesOverview,
  userAccess,
} from '@outlay/contracts';
import { contextOf, type AppDeps } from '../../lib/context.ts';
import { getRoute, listRoute } from '../../lib/list-routes.ts';
import * as roles from './roles.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };
const manage = { access: 'roles.manage' as const };
// The role screens' reads: also for a settings reader, who grants nothing.
const read = { access: ['roles.manage', 'settings.read'] as const };
const holderPage = paginated(roleHolder);
const customRolePage = paginated(customRole);

export async function rolesRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/roles',
    {
      config: read,
      schema: {
        tags: ['roles'],
        summary: 'System roles (label, scope, permissions, holders) and custom roles',
        response: { 200: rolesOverview, ...errors },
      },
    },
    async (request) => roles.overview(contextOf(request, deps)),
  );
  listRoute(r, deps, '/api/roles/people', roles.people, {
    config: read,
    tags: ['roles'],
    summary: 'Everyone whose role the caller manages, with role and custom role; searchable',
    querystring: listQuery,
    response: { 200: holderPage, ...errors },
  });
  r.get(
    '/api/roles/:role/holders',
    {
      config: read,
      schema: {
        tags: ['roles'],
        summary: "Who holds a system role (within the caller's scope)",
        params: roleParam,
        querystring: listQuery,
        response: { 200: holderPage, ...errors },
      },
    },
    async (request) => roles.roleHolders(contextOf(request, deps), request.params.role, request.query),
  );
  r.put(
    '/api/users/:id/role',
    {
      config: manage,
      schema: {
        tags: ['roles'],
        summary: "Change a user's role (step-up; never to more than the caller holds; the last owner stays)",
        params: idParam,
        body: changeRoleInput,
        response: { 200: userAccess, ...errors },
      },
    },
    async (request) => roles.changeRole(contextOf(request, deps), request.params.id, request.body.role),
  );
  r.post(
    '/api/users/bulk/role',
    {
      config: manage,
      schema: {
        tags: ['roles'],
        summary:
          'Change the role of several users (step-up; each under the single-change rules, refusals skipped and named)',
        body: bulkRoleChangeInput,
        response: { 200: bulkUserResult, ...errors },
      },
    },
    async (request) => roles.bulkChangeRole(contextOf(request, deps), request.body.ids, request.body.role),
  );
  r.put(
    '/api/users/:id/custom-role',
    {
      config: manage,
      schema: {
        tags: ['roles'],
        summary: 'Assign a custom role to a user, or remove it with null (step-up)',
        params: idParam,
        body: assignCustomRoleInput,
        response: { 200: userAccess, ...errors },
      },
    },
    async (request) => roles.assignCustomRole(contextOf(request, deps), request.params.id, request.body.customRoleId),
  );

  listRoute(r, deps, '/api/custom-roles', roles.listCustom, {
    config: read,
    tags: ['roles'],
    summary: 'Custom roles with their holders',
    querystring: listQuery,
    response: { 200: customRolePage, ...errors },
  });
  getRoute(r, deps, '/api/custom-roles/:id', (ctx, { id }) => roles.getCustom(ctx, id), {
    config: read,
    tags: ['roles'],
    summary: 'One custom role',
    params: idParam,
    response: { 200: customRole, ...errors },
  });
  r.get(
    '/api/custom-roles/:id/holders',
    {
      config: read,
      schema: {
        tags: ['roles'],
        summary: 'Users a custom role is assigned to',
        params: idParam,
        querystring: listQuery,
        response: { 200: holderPage, ...errors },
      },
    },
    async (request) => roles.customRoleHolders(contextOf(request, deps), request.params.id, request.query),
  );
  r.post(
    '/api/custom-roles',
    {
      config: manage,
      schema: {
        tags: ['roles'],
        summary: 'Create a custom role from permissions the caller holds (step-up)',
        body: customRoleInput,
        response: { 201: customRole, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await roles.createCustom(contextOf(request, deps), request.body)),
  );
  r.put(
    '/api/custom-roles/:id',
    {
      config: manage,
      schema: {
        tags: ['roles'],
        summary: 'Change a custom role (step-up); holders get the new grants on their next call',
        params: idParam,
        body: customRoleInput,
        response: { 200: customRole, ...errors },
      },
    },
    async (request) => roles.updateCustom(contextOf(request, deps), request.params.id, request.body),
  );
  r.delete(
    '/api/custom-roles/:id',
    {
      config: manage,
      schema: {
        tags: ['roles'],
        summary: 'Delete a custom role that nobody holds (step-up)',
        params: idParam,
        response: { 200: messageResponse, ...errors },
      },
    },
    async (request) => roles.deleteCustom(contextOf(request, deps), request.params.id),
  );
}
