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
  cancelRequestInput,
  cycleTimeQuery,
  cycleTimes,
  decisionInput,
  decisionResult,
  errorResponse,
  escalateInput,
  idParam,
  inFlightList,
  inFlightQuery,
  overrunRequestParam,
  payRequestInput,
  reassignInput,
  requestDetail,
  rerouteInput,
  respondInput,
} from '@outlay/contracts';
import { fastSerializerCompiler } from '../../lib/fast-serializer.ts';
import { contextOf, type AppDeps } from '../../lib/context.ts';
import { idempotencyKeyOf } from '../../lib/idempotency.ts';
import * as service from './approvals.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };
const requestIdParam = z.object({ requestId: z.uuid('Not a valid request') });
const stepIdParam = z.object({ stepId: z.uuid('Not a valid step') });

export async function approvalsRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  // --- transitions of one request ---------------------------------------------------------
  r.post(
    '/api/requests/:id/submit',
    {
      config: { access: 'requests.create' },
      schema: {
        tags: ['requests'],
        summary:
          'Submit a draft: amounts fixed in the organization and group currencies, route chosen, first approvers told (Idempotency-Key honoured)',
        params: idParam,
        response: { 200: requestDetail, ...errors },
      },
    },
    async (request, reply) => {
      const outcome = await service.submitRequest(
        contextOf(request, deps),
        request.params.id,
        idempotencyKeyOf(request.headers),
      );
      if (outcome.replayed) reply.header('Idempotent-Replayed', 'true');
      return reply.code(outcome.status).send(outcome.body);
    },
  );
  r.post(
    '/api/requests/:id/cancel',
    {
      config: { access: 'requests.create' },
      schema: {
        tags: ['requests'],
        summary: 'Cancel your own draft, pending or waiting request',
        params: idParam,
        body: cancelRequestInput,
        response: { 200: requestDetail, ...errors },
      },
    },
    async (request) => service.cancelRequest(contextOf(request, deps), request.params.id, request.body.reason),
  );
  r.post(
    '/api/requests/:id/respond',
    {
      config: { access: 'requests.create' },
      schema: {
        tags: ['requests'],
        summary: 'Answer a request for information: the request goes back to the same step with fresh assignments',
        params: idParam,
        body: respondInput,
        response: { 200: requestDetail, ...errors },
      },
    },
    async (request) => service.respondToRequest(contextOf(request, deps), request.params.id, request.body.message),
  );
  r.post(
    '/api/requests/:id/pay',
    {
      config: { access: 'requests.pay' },
      schema: {
        tags: ['requests'],
        summary: 'Mark an approved request paid',
        params: idParam,
        body: payRequestInput,
        response: { 200: requestDetail, ...errors },
      },
    },
    async (request) => service.payRequest(contextOf(request, deps), request.params.id, request.body),
  );
  r.post(
    '/api/requests/:id/reroute',
    {
      config: { access: 'approvals.manage' },
      schema: {
        tags: ['approvals'],
        summary: 'Re-route a pending request: the current round is superseded and a new one starts from step 1',
        params: idParam,
        body: rerouteInput,
        response: { 200: requestDetail, ...errors },
      },
    },
    async (request) => service.rerouteRequest(contextOf(request, deps), request.params.id, request.body),
  );

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
