import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  calendarFeedCreated,
  calendarFeedStatus,
  calendarImportInput,
  calendarImportPreview,
  calendarImportPreviewInput,
  calendarImportResult,
  calendarUpcoming,
  errorResponse,
} from '@outlay/contracts';
import { contextOf, type AppDeps } from '../../lib/context.ts';
import { confirmImport, previewImport } from './calendar.import.ts';
import * as service from './calendar.service.ts';

const tags = ['calendar'];
const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };
// Everyone's own link and dates.
const own = { access: 'authenticated' as const, apiKeyScope: false as const };
const drafts = { access: 'requests.create' as const };

export async function calendarRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/calendar/feed',
    {
      config: own,
      schema: {
        tags,
        summary: 'Whether I have a calendar subscription link, when it was made and last fetched',
        response: { 200: calendarFeedStatus, ...errors },
      },
    },
    async (request) => service.feedStatus(contextOf(request, deps)),
  );
  r.post(
    '/api/calendar/feed',
    {
      config: own,
      schema: {
        tags,
        summary:
          'Make my private calendar link, replacing any earlier one (which stops working); the link is shown only in this answer',
        response: { 201: calendarFeedCreated, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await service.createFeed(contextOf(request, deps))),
  );
  r.delete(
    '/api/calendar/feed',
    {
      config: own,
      schema: {
        tags,
        summary: 'Revoke my calendar link: calendars subscribed to it get nothing more',
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await service.revokeFeed(contextOf(request, deps));
      return reply.code(204).send(null);
    },
  );
  r.get(
    '/api/calendar/upcoming',
    {
      config: own,
      schema: {
        tags,
        summary: 'What my calendar feed holds for the next 30 days',
        response: { 200: calendarUpcoming, ...errors },
      },
    },
    async (request) => service.upcoming(contextOf(request, deps)),
  );
  r.post(
    '/api/calendar/import/preview',
    {
      config: drafts,
      schema: {
        tags,
        summary: 'Read an .ics file and list the events that would become draft requests; creates nothing',
        body: calendarImportPreviewInput,
        response: { 200: calendarImportPreview, ...errors },
      },
    },
    async (request) => previewImport(request.body.content),
  );
  r.post(
    '/api/calendar/import',
    {
      config: drafts,
      schema: {
        tags,
        summary: 'Make a draft request of mine from each chosen event of an .ics file (all or none)',
        body: calendarImportInput,
        response: { 201: calendarImportResult, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await confirmImport(contextOf(request, deps), request.body)),
  );
  // Calendar apps fetch this without signing in: the random token in the file name is the credential.
  r.get(
    '/api/calendar/:file',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'The iCalendar feed behind a private link (text/calendar); an unknown or revoked link answers 404',
        params: z.object({ file: z.string().max(200) }),
      },
    },
    async (request, reply) => {
      const body = await service.feedIcs(contextOf(request, deps), request.params.file);
      // Everything in it is personal: no shared cache may keep it.
      reply.header('cache-control', 'private, no-store');
      return reply.type('text/calendar; charset=utf-8').send(body);
    },
  );
}
