import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  errorResponse,
  idParam,
  webhook,
  webhookCreateInput,
  webhookCreated,
  webhookDelivery,
  webhookDeliveryList,
  webhookDeliveryParams,
  webhookList,
  webhookSecretRotated,
  webhookUpdateInput,
} from '@outlay/contracts';
import { contextOf, type AppDeps } from '../../lib/context.ts';
import { getRoute } from '../../lib/list-routes.ts';
import * as service from './webhooks.service.ts';

const tags = ['webhooks'];
const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };
const access = { access: 'integrations.manage' as const };
const destinationSettings = z.object({ allowPrivateDestinations: z.boolean() });

export async function webhooksRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/webhooks',
    { config: access, schema: { tags, summary: 'My webhooks', response: { 200: webhookList, ...errors } } },
    async (request) => service.listWebhooks(contextOf(request, deps)),
  );
  r.post(
    '/api/webhooks',
    {
      config: access,
      schema: {
        tags,
        summary:
          'Send the chosen events to an http(s) address, signed per Standard Webhooks; the signing secret is shown only in this answer',
        body: webhookCreateInput,
        response: { 201: webhookCreated, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await service.createWebhook(contextOf(request, deps), request.body)),
  );
  r.patch(
    '/api/webhooks/:id',
    {
      config: access,
      schema: {
        tags,
        summary: 'Switch a webhook on or off',
        params: idParam,
        body: webhookUpdateInput,
        response: { 200: webhook, ...errors },
      },
    },
    async (request) => service.setWebhookEnabled(contextOf(request, deps), request.params.id, request.body.enabled),
  );
  r.delete(
    '/api/webhooks/:id',
    {
      config: access,
      schema: {
        tags,
        summary: 'Delete a webhook and its delivery log',
        params: idParam,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await service.deleteWebhook(contextOf(request, deps), request.params.id);
      return reply.code(204).send(null);
    },
  );
  r.post(
    '/api/webhooks/:id/rotate-secret',
    {
      config: access,
      schema: {
        tags,
        summary:
          'A new signing secret, shown only in this answer; for the grace period (WEBHOOK_SECRET_GRACE_HOURS, 24 by default) deliveries carry the new and the old secret’s signatures',
        params: idParam,
        response: { 200: webhookSecretRotated, ...errors },
      },
    },
    async (request) => service.rotateSecret(contextOf(request, deps), request.params.id),
  );
  getRoute(r, deps, '/api/webhooks/:id/deliveries', (ctx, { id }) => service.listDeliveries(ctx, id), {
    config: access,
    tags,
    summary: 'A webhook’s last 100 deliveries: status, response code, duration',
    params: idParam,
    response: { 200: webhookDeliveryList, ...errors },
  });
  r.post(
    '/api/webhooks/:id/deliveries/:deliveryId/redeliver',
    {
      config: access,
      schema: {
        tags,
        summary:
          'Send a past delivery’s message again under the same webhook-id, as a new delivery in the log; 409 while a delivery of it is pending',
        params: webhookDeliveryParams,
        response: { 201: webhookDelivery, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await service.redeliver(contextOf(request, deps), request.params.id, request.params.deliveryId)),
  );
  r.get(
    '/api/webhooks/settings',
    {
      config: { access: 'security.manage' },
      schema: {
        tags,
        summary: 'Whether webhooks may reach loopback and private addresses',
        response: { 200: destinationSettings, ...errors },
      },
    },
    async (request) => service.destinationSettings(contextOf(request, deps)),
  );
  r.put(
    '/api/webhooks/settings',
    {
      config: { access: 'security.manage' },
      schema: {
        tags,
        summary: 'Allow or refuse webhook destinations on loopback and private addresses',
        body: destinationSettings,
        response: { 200: destinationSettings, ...errors },
      },
    },
    async (request) => service.updateDestinationSettings(contextOf(request, deps), request.body),
  );
}
