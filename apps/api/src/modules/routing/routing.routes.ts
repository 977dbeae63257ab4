import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  autoApprovalRule,
  autoApprovalRuleInput,
  autoApprovalRuleList,
  errorResponse,
  idParam,
  prediction,
  predictionQuery,
  routeExplanation,
} from '@outlay/contracts';
import { contextOf, type AppDeps } from '../../lib/context.ts';
import * as service from './routing.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };
const act = { access: 'approvals.act' as const };
const manageWorkflows = { access: 'workflows.manage' as const };
const tags = ['routing'];

export async function routingRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/routing/requests/:id',
    {
      config: act,
      schema: {
        tags,
        summary:
          "Why a request took its route: the matched workflow and conditions, the current round's approvers and why, and a time prediction",
        params: idParam,
        response: { 200: routeExplanation, ...errors },
      },
    },
    async (request) => service.explainRoute(contextOf(request, deps), request.params.id),
  );
  r.get(
    '/api/routing/prediction',
    {
      config: act,
      schema: {
        tags,
        summary: 'Median and 90th percentile hours to a decision for similar requests of the last 12 months',
        querystring: predictionQuery,
        response: { 200: prediction, ...errors },
      },
    },
    async (request) => service.predict(contextOf(request, deps), request.query),
  );

  r.get(
    '/api/auto-approval-rules',
    {
      config: manageWorkflows,
      schema: {
        tags,
        summary: "Auto-approval rules in the caller's scope with how many requests each approved",
        response: { 200: autoApprovalRuleList, ...errors },
      },
    },
    async (request) => service.listRules(contextOf(request, deps)),
  );
  r.post(
    '/api/auto-approval-rules',
    {
      config: manageWorkflows,
      schema: {
        tags,
        summary: 'Create an auto-approval rule',
        body: autoApprovalRuleInput,
        response: { 201: autoApprovalRule, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await service.createRule(contextOf(request, deps), request.body)),
  );
  r.put(
    '/api/auto-approval-rules/:id',
    {
      config: manageWorkflows,
      schema: {
        tags,
        summary: 'Replace an auto-approval rule',
        params: idParam,
        body: autoApprovalRuleInput,
        response: { 200: autoApprovalRule, ...errors },
      },
    },
    async (request) => service.updateRule(contextOf(request, deps), request.params.id, request.body),
  );
  r.delete(
    '/api/auto-approval-rules/:id',
    {
      config: manageWorkflows,
      schema: {
        tags,
        summary: 'Delete an auto-approval rule',
        params: idParam,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await service.deleteRule(contextOf(request, deps), request.params.id);
      return reply.code(204).send(null);
    },
  );
}
