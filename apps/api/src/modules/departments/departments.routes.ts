import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  createDepartmentInput,
  department,
  departmentExportQuery,
  departmentList,
  departmentListQuery,
  errorResponse,
  idParam,
  updateDepartmentInput,
} from '@outlay/contracts';
import { contextOf, type AppDeps } from '../../lib/context.ts';
import { sendExport } from '../../lib/export.ts';
import * as departments from './departments.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };
const readErrors = { 400: errorResponse, 401: errorResponse, 404: errorResponse };

/**
 * Departments of each organization. Reads serve pickers too (any signed-in person, limited to
 * their scope); changes need org.manage.
 */
export async function departmentsRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/departments',
    {
      config: { access: 'authenticated', apiKeyScope: 'any' },
      schema: {
        tags: ['departments'],
        summary: "Departments in the caller's scope",
        querystring: departmentListQuery,
        response: { 200: departmentList, ...readErrors },
      },
    },
    async (request) => departments.listDepartments(contextOf(request, deps), request.query),
  );
  r.get(
    '/api/departments/export',
    {
      config: { access: 'authenticated', apiKeyScope: 'any' },
      schema: { tags: ['departments'], summary: 'Departments as CSV or XLSX', querystring: departmentExportQuery },
    },
    async (request, reply) => {
      const ctx = contextOf(request, deps);
      const rows = await departments.exportDepartments(ctx, request.query);
      return sendExport(reply, {
        format: request.query.format,
        filename: 'departments',
        columns: departments.departmentExportColumns,
        rows,
        now: ctx.now,
      });
    },
  );
  r.get(
    '/api/departments/:id',
    {
      config: { access: 'authenticated', apiKeyScope: 'any' },
      schema: {
        tags: ['departments'],
        summary: 'One department',
        params: idParam,
        response: { 200: department, ...readErrors },
      },
    },
    async (request) => departments.getDepartment(contextOf(request, deps), request.params.id),
  );
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
