import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  approveRegistrationInput,
  approveRegistrationResponse,
  assignableOrganizations,
  assignableRoles,
  errorResponse,
  idParam,
  registrationConfig,
  registrationCreated,
  registrationExportQuery,
  registrationListQuery,
  registrationRequestBody,
  registrationRequestItem,
  registrationRequestList,
  rejectRegistrationInput,
} from '@outlay/contracts';
import { contextOf, type AppDeps } from '../../lib/context.ts';
import { exportRoute, getRoute, listRoute } from '../../lib/list-routes.ts';
import {
  REQUEST_EXPORT_COLUMNS,
  approveRequest,
  exportRequests,
  getAssignableOrganizations,
  getAssignableRoles,
  getConfig,
  getRequest,
  listRequests,
  rejectRequest,
  submit,
} from './registration-requests.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };
const review = { access: 'users.manage' as const };
// Reading the requests: also for a settings reader, who decides none.
const read = { access: ['users.manage', 'settings.read'] as const };

export async function registrationRequestsRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/registration-requests/config',
    {
      config: { access: 'public' },
      schema: {
        tags: ['registration'],
        summary: 'Authorized e-mail domains and requestable roles for the form',
        response: { 200: registrationConfig },
      },
    },
    async (request) => getConfig(contextOf(request, deps)),
  );
  r.post(
    '/api/registration-requests',
    {
      config: { access: 'public' },
      schema: {
        tags: ['registration'],
        summary: 'Request access; an administrator reviews it',
        body: registrationRequestBody,
        response: { 201: registrationCreated, 400: errorResponse, 409: errorResponse, 429: errorResponse },
      },
    },
    async (request, reply) => reply.code(201).send(await submit(contextOf(request, deps), request.body)),
  );

  listRoute(r, deps, '/api/registration-requests', listRequests, {
    config: read,
    tags: ['registration'],
    summary: 'Registration requests: search by name or e-mail, filter by status',
    querystring: registrationListQuery,
    response: { 200: registrationRequestList, ...errors },
  });
  exportRoute(r, deps, '/api/registration-requests/export', exportRequests, {
    config: read,
    tags: ['registration'],
    summary: 'All matching registration requests as CSV or XLSX',
    querystring: registrationExportQuery,
    filename: 'registration-requests',
    columns: REQUEST_EXPORT_COLUMNS,
  });
  r.get(
    '/api/registration-requests/assignable-organizations',
    {
      config: review,
      schema: {
        tags: ['registration'],
        summary: 'Organizations (with their departments) the reviewer may place a new user in',
        response: { 200: assignableOrganizations, ...errors },
      },
    },
    async (request) => getAssignableOrganizations(contextOf(request, deps)),
  );
  r.get(
    '/api/registration-requests/assignable-roles',
    {
      config: review,
      schema: {
        tags: ['registration'],
        summary: 'Roles the reviewer may grant (never more than they hold)',
        response: { 200: assignableRoles, ...errors },
      },
    },
    async (request) => getAssignableRoles(contextOf(request, deps)),
  );
  getRoute(r, deps, '/api/registration-requests/:id', (ctx, { id }) => getRequest(ctx, id), {
    config: read,
    tags: ['registration'],
    summary: 'One registration request',
    params: idParam,
    response: { 200: registrationRequestItem, ...errors },
  });
  r.post(
    '/api/registration-requests/:id/approve',
    {
      config: review,
      schema: {
        tags: ['registration'],
        summary: 'Approve: creates the user with a temporary password, returned once in this answer',
        params: idParam,
        body: approveRegistrationInput,
        response: { 200: approveRegistrationResponse, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return approveRequest(contextOf(request, deps), request.params.id, request.body);
    },
  );
  r.post(
    '/api/registration-requests/:id/reject',
    {
      config: review,
      schema: {
        tags: ['registration'],
        summary: 'Reject with a reason',
        params: idParam,
        body: rejectRegistrationInput,
        response: { 200: registrationRequestItem, ...errors },
      },
    },
    async (request) => rejectRequest(contextOf(request, deps), request.params.id, request.body),
  );
}
