import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  delegation,
  delegationInput,
  delegationList,
  delegationListQuery,
  errorResponse,
  idParam,
} from '@outlay/contracts';
import { contextOf, type AppDeps } from '../../lib/context.ts';
import * as service from './delegations.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };
const act = { access: 'approvals.act' as const };
const tags = ['delegations'];

export async function delegationsRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/delegations',
    {
      config: act,
      schema: {
        tags,
        summary:
          "The caller's delegations (as the person away or the delegate); ?all=true with approvals.manage: all in scope",
        querystring: delegationListQuery,
        response: { 200: delegationList, ...errors },
      },
    },
    async (request) => service.listDelegations(contextOf(request, deps), request.query),
  );
  r.post(
    '/api/delegations',
    {
      config: act,
      schema: {
        tags,
        summary:
          "Set up an out-of-office delegation (someone else's needs approvals.manage); waiting items move at the start",
        body: delegationInput,
        response: { 201: delegation, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await service.createDelegation(contextOf(request, deps), request.body)),
  );
  r.delete(
    '/api/delegations/:id',
    {
      config: act,
      schema: {
        tags,
        summary: 'Revoke a delegation (the person away or approvals.manage); open delegated items go back',
        params: idParam,
        response: { 200: delegation, ...errors },
      },
    },
    async (request) => service.revokeDelegation(contextOf(request, deps), request.params.id),
  );
}
