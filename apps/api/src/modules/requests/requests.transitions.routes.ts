import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  cancelRequestInput,
  errorResponse,
  idParam,
  payRequestInput,
  requestDetail,
  rerouteInput,
  respondInput,
} from '@outlay/contracts';
import { contextOf, type AppDeps } from '../../lib/context.ts';
import { idempotencyKeyOf } from '../../lib/idempotency.ts';
import * as service from './requests.transitions.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };

/** The moves of one request through its lifecycle; the steps themselves are the approvals module's. */
export async function requestTransitionsRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

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
}
