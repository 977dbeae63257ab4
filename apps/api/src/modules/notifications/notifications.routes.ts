import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  errorResponse,
  idParam,
  markAllReadResult,
  notificationItem,
  notificationListQuery,
  notificationPage,
  notificationPreferences,
  unreadCount,
  updateNotificationPreferences,
} from '@outlay/contracts';
import { contextOf, type AppDeps } from '../../lib/context.ts';
import { listRoute } from '../../lib/list-routes.ts';
import * as service from './notifications.service.ts';
import { serveStream, type OpenStreams } from './notifications.live-stream.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };
// Every signed-in person reads their own notifications and their own live events.
const read = { access: 'notifications.read' as const };

export async function notificationsRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const open: OpenStreams = new Set();
  // Open event streams never finish on their own: end them so the server can close.
  app.addHook('preClose', async () => {
    for (const end of [...open]) end();
  });

  r.get(
    '/api/events/stream',
    {
      config: read,
      schema: {
        tags: ['notifications'],
        summary:
          'Server-sent events for the signed-in user: notifications, request activity and budget changes in their scope. Each event has an `id:`; a reconnect with Last-Event-ID first gets what it missed (the last hour, up to 500 events)',
        response: { 401: errorResponse, 403: errorResponse },
      },
    },
    async (request, reply) => serveStream(deps, open, request, reply),
  );

  listRoute(r, deps, '/api/notifications', service.list, {
    config: read,
    tags: ['notifications'],
    summary: 'My notifications, newest first; filter unread or by type',
    querystring: notificationListQuery,
    response: { 200: notificationPage, ...errors },
  });
  r.get(
    '/api/notifications/unread-count',
    {
      config: read,
      schema: {
        tags: ['notifications'],
        summary: 'How many of my notifications are unread',
        response: { 200: unreadCount, ...errors },
      },
    },
    async (request) => service.unread(contextOf(request, deps)),
  );
  r.post(
    '/api/notifications/read-all',
    {
      config: read,
      schema: {
        tags: ['notifications'],
        summary: 'Mark all my notifications read',
        response: { 200: markAllReadResult, ...errors },
      },
    },
    async (request) => service.markAllRead(contextOf(request, deps)),
  );
  r.post(
    '/api/notifications/:id/read',
    {
      config: read,
      schema: {
        tags: ['notifications'],
        summary: 'Mark one of my notifications read (another person’s is not found)',
        params: idParam,
        response: { 200: notificationItem, ...errors },
      },
    },
    async (request) => service.markRead(contextOf(request, deps), request.params.id),
  );
  r.get(
    '/api/notification-preferences',
    {
      config: read,
      schema: {
        tags: ['notifications'],
        summary: 'My channels (in-app, e-mail) per event type and my digest frequency',
        response: { 200: notificationPreferences, ...errors },
      },
    },
    async (request) => service.getPreferences(contextOf(request, deps)),
  );
  r.put(
    '/api/notification-preferences',
    {
      config: read,
      schema: {
        tags: ['notifications'],
        summary: 'Change my channels per event type and/or my digest frequency',
        body: updateNotificationPreferences,
        response: { 200: notificationPreferences, ...errors },
      },
    },
    async (request) => service.updatePreferences(contextOf(request, deps), request.body),
  );
}
