import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  approverOptions,
  approverOptionsQuery,
  errorResponse,
  idParam,
  simulateInput,
  simulationResult,
  workflow,
  workflowInput,
  workflowList,
  workflowListQuery,
} from '@outlay/contracts';
import { contextOf, type AppDeps } from '../../lib/context.ts';
import { expectedVersion, versionConflictResponse, withEtag } from '../../lib/versions.ts';
import * as service from './workflows.service.ts';
import { simulate } from './simulate.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };
const access = { access: 'workflows.manage' as const };
// The workflows and their steps: also for a settings reader, who changes none.
const read = { access: ['workflows.manage', 'settings.read'] as const };
const tags = ['workflows'];

export async function workflowsRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/workflows',
    {
      config: read,
      schema: {
        tags,
        summary:
          "Approval workflows in the caller's scope, by organization then priority, with their steps and requests in flight",
        querystring: workflowListQuery,
        response: { 200: workflowList, ...errors },
      },
    },
    async (request) => service.listWorkflows(contextOf(request, deps), request.query),
  );
  r.get(
    '/api/workflows/approver-options',
    {
      // Approvers pick delegates and managers pick whom to reassign to: not only workflow editors.
      config: { access: 'approvals.act' as const },
      schema: {
        tags,
        summary: 'Active users to name as approver, fallback or delegate (search by name, at most 50)',
        querystring: approverOptionsQuery,
        response: { 200: approverOptions, ...errors },
      },
    },
    async (request) => service.approverOptions(contextOf(request, deps), request.query),
  );
  r.post(
    '/api/workflows/simulate',
    {
      config: access,
      schema: {
        tags,
        summary:
          "Run a sample request through the routing engine (saved workflows or the builder's unsaved one); saves nothing",
        body: simulateInput,
        response: { 200: simulationResult, ...errors },
      },
    },
    async (request) => simulate(contextOf(request, deps), request.body),
  );
  r.get(
    '/api/workflows/:id',
    {
      config: read,
      schema: { tags, summary: 'One workflow with its steps', params: idParam, response: { 200: workflow, ...errors } },
    },
    async (request, reply) => withEtag(reply, await service.readWorkflow(contextOf(request, deps), request.params.id)),
  );
  r.post(
    '/api/workflows',
    {
      config: access,
      schema: {
        tags,
        summary: 'Create a workflow (conditions and ordered steps)',
        body: workflowInput,
        response: { 201: workflow, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(withEtag(reply, await service.createWorkflow(contextOf(request, deps), request.body))),
  );
  r.put(
    '/api/workflows/:id',
    {
      config: access,
      schema: {
        tags,
        summary:
          "Replace a workflow's conditions and all its steps (in the given order); the version goes up and requests in flight keep their route. With If-Match, only if the workflow is still at that version (412 otherwise)",
        params: idParam,
        body: workflowInput,
        response: { 200: workflow, ...errors, ...versionConflictResponse },
      },
    },
    async (request, reply) =>
      withEtag(
        reply,
        await service.updateWorkflow(
          contextOf(request, deps),
          request.params.id,
          request.body,
          expectedVersion(request),
        ),
      ),
  );
  r.delete(
    '/api/workflows/:id',
    {
      config: access,
      schema: {
        tags,
        summary: 'Delete a workflow without requests in flight (otherwise deactivate it)',
        params: idParam,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await service.deleteWorkflow(contextOf(request, deps), request.params.id);
      return reply.code(204).send(null);
    },
  );
}
