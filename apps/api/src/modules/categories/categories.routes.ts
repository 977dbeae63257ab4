import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  category,
  categoryExportQuery,
  categoryList,
  categoryListQuery,
  createCategoryInput,
  errorResponse,
  idParam,
  updateCategoryInput,
} from '@outlay/contracts';
import { contextOf, type AppDeps } from '../../lib/context.ts';
import { exportRoute, getRoute, listRoute } from '../../lib/list-routes.ts';
import * as categories from './categories.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };
const readErrors = { 400: errorResponse, 401: errorResponse, 404: errorResponse };

/**
 * Expense categories. Reads serve pickers too (any signed-in person, limited to their scope);
 * changes need org.manage.
 */
export async function categoriesRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  listRoute(r, deps, '/api/categories', categories.listCategories, {
    config: { access: 'authenticated', apiKeyScope: 'any' },
    tags: ['categories'],
    summary: "Expense categories in the caller's scope",
    querystring: categoryListQuery,
    response: { 200: categoryList, ...readErrors },
  });
  exportRoute(r, deps, '/api/categories/export', categories.exportCategories, {
    config: { access: 'authenticated', apiKeyScope: 'any' },
    tags: ['categories'],
    summary: 'Categories as CSV or XLSX',
    querystring: categoryExportQuery,
    filename: 'categories',
    columns: categories.categoryExportColumns,
  });
  getRoute(r, deps, '/api/categories/:id', (ctx, { id }) => categories.getCategory(ctx, id), {
    config: { access: 'authenticated', apiKeyScope: 'any' },
    tags: ['categories'],
    summary: 'One category',
    params: idParam,
    response: { 200: category, ...readErrors },
  });
  r.post(
    '/api/categories',
    {
      config: { access: 'org.manage' },
      schema: {
        tags: ['categories'],
        summary: 'Create a category',
        body: createCategoryInput,
        response: { 201: category, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await categories.createCategory(contextOf(request, deps), request.body)),
  );
  r.patch(
    '/api/categories/:id',
    {
      config: { access: 'org.manage' },
      schema: {
        tags: ['categories'],
        summary: 'Update or deactivate a category',
        params: idParam,
        body: updateCategoryInput,
        response: { 200: category, ...errors },
      },
    },
    async (request) => categories.updateCategory(contextOf(request, deps), request.params.id, request.body),
  );
}
