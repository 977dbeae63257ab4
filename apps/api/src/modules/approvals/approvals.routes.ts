import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  approvalQueue,
  approvalQueueQuery,
  budgetOverrun,
  budgetOverrunDecisionInput,
  bulkApproveInput,
  bulkApproveResult,
  cycleTimeQuery,
  cycleTimes,
  decisionInput,
  decisionResult,
  errorResponse,
  escalateInput,
  inFlightList,
  inFlightQuery,
  overrunRequestParam,
  reassignInput,
  requestDetail,
} from '@outlay/contracts';
import { fastSerializerCompiler } from '../../lib/fast-serializer.ts';
import { contextOf, type AppDeps } from '../../lib/context.ts';
import * as service from './approvals.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };
const requestIdParam = z.object({ requestId: z.uuid('Not a valid request') });
const stepIdParam = z.object({ stepId: z.uuid('Not a valid step') });

export async function approvalsRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  // --- the queue and decisions ------------------------------------------------------------
  r.get(
    '/api/approvals/queue',
    {
      config: { access: 'approvals.act' },
      schema: {
        tags: ['approvals'],
        summary: "The caller's open approvals, with SLA state",
        querystring: approvalQueueQuery,
        response: { 200: approvalQueue, ...errors },
      },
      // Every approver opens it: written from the same schema without zod's encode.
      serializerCompiler: fastSerializerCompiler,
    },
    async (request) => service.approvalQueue(contextOf(request, deps), request.query),
  );
  r.post(
    '/api/approvals/bulk-approve',
    {
      config: { access: 'approvals.act' },
      schema: {
        tags: ['approvals'],
        summary: 'Approve several requests, each on its own; failures are listed with their reason',
        body: bulkApproveInput,
        response: { 200: bulkApproveResult, ...errors },
      },
    },
    async (request) => service.bulkApprove(contextOf(request, deps), request.body),
  );
  r.post(
    '/api/approvals/:requestId/decide',
    {
      config: { access: 'approvals.act' },
      schema: {
        tags: ['approvals'],
        summary:
          'Approve (optionally rejecting line items), reject or ask for information at the current step; exactly once',
        params: requestIdParam,
        body: decisionInput,
        response: { 200: decisionResult, ...errors },
      },
    },
    async (request) => service.decide(contextOf(request, deps), request.params.requestId, request.body),
  );

  // --- management -------------------------------------------------------------------------
  r.get(
    '/api/approvals/in-flight',
    {
      config: { access: 'approvals.manage' },
      schema: {
        tags: ['approvals'],
        summary: 'Active steps of pending requests in scope, with SLA state',
        querystring: inFlightQuery,
        response: { 200: inFlightList, ...errors },
      },
    },
    async (request) => service.inFlight(contextOf(request, deps), request.query),
  );
  r.post(
    '/api/approvals/steps/:stepId/reassign',
    {
      config: { access: 'approvals.manage' },
      schema: {
        tags: ['approvals'],
        summary: "Move one person's open item at a step to someone else",
        params: stepIdParam,
        body: reassignInput,
        response: { 200: requestDetail, ...errors },
      },
    },
    async (request) => service.reassignStep(contextOf(request, deps), request.params.stepId, request.body),
  );
  r.post(
    '/api/approvals/steps/:stepId/escalate',
    {
      config: { access: 'approvals.manage' },
      schema: {
        tags: ['approvals'],
        summary: "Escalate a step now: the step's fallback (else the next level up) is added",
        params: stepIdParam,
        body: escalateInput,
        response: { 200: requestDetail, ...errors },
      },
    },
    async (request) => service.escalateStepNow(contextOf(request, deps), request.params.stepId, request.body?.note),
  );
  r.get(
    '/api/approvals/cycle-times',
    {
      config: { access: 'approvals.manage' },
      schema: {
        tags: ['approvals'],
        summary:
          'Hours from step activation to decision, per step name and per approver (average, median, 90th percentile)',
        querystring: cycleTimeQuery,
        response: { 200: cycleTimes, ...errors },
      },
    },
    async (request) => service.cycleTimes(contextOf(request, deps), request.query),
  );
  // Deciding an overrun is the decision on the request's "Budget overrun" step, so it is the
  // engine's; the address stays under /api/budgets, where finance finds the overruns.
  r.post(
    '/api/budgets/overruns/:requestId/decide',
    {
      config: { access: 'budgets.approve_overrun' },
      schema: {
        tags: ['budgets'],
        summary:
          "Approve (the request's route continues) or reject (the request is rejected) a budget overrun, with a required note",
        params: overrunRequestParam,
        body: budgetOverrunDecisionInput,
        response: { 200: budgetOverrun, ...errors },
      },
    },
    async (request) => service.decideOverrun(contextOf(request, deps), request.params.requestId, request.body),
  );
}
