import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  announcement,
  announcementAudiences,
  announcementListQuery,
  announcementPage,
  ATTACHMENT_MAX_BYTES,
  attachmentCaption,
  communicationsUnread,
  conversation,
  conversationList,
  conversationParams,
  createAnnouncementInput,
  createConversationInput,
  errorResponse,
  idParam,
  message,
  messageListQuery,
  messagePage,
  peopleQuery,
  personList,
  sendMessageInput,
} from '@outlay/contracts';
import { contextOf, type AppDeps } from '../../lib/context.ts';
import { getRoute, listRoute } from '../../lib/list-routes.ts';
import { receiveFile, uploadField } from '../../lib/uploads.ts';
import { readUpload } from '../requests/index.ts';
import { sendFile } from './communications.attachments.ts';
import * as service from './communications.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };
const tags = ['communications'];
// Every signed-in person with communications.use reads what is addressed to them and talks in
// their conversations; membership is checked in the service (others get 404).
const use = { access: 'communications.use' as const };
const announce = { access: 'communications.announce' as const };

/** RFC 6266 / 5987: an ASCII fallback plus the exact UTF-8 name. */
function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}

export async function communicationsRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  // Encapsulated: only this plugin's routes parse multipart bodies.
  await app.register(multipart, { limits: { fileSize: ATTACHMENT_MAX_BYTES, files: 1, fields: 2, parts: 3 } });
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/communications/unread',
    {
      config: use,
      schema: {
        tags,
        summary: 'Unread messages and announcements of the caller (the top bar)',
        response: { 200: communicationsUnread, ...errors },
      },
    },
    async (request) => service.unread(contextOf(request, deps)),
  );
  r.get(
    '/api/communications/people',
    {
      config: use,
      schema: {
        tags,
        summary: 'Active people to start a conversation with (search by name or username)',
        querystring: peopleQuery,
        response: { 200: personList, ...errors },
      },
    },
    async (request) => service.people(contextOf(request, deps), request.query.q),
  );

  // --- announcements
  listRoute(r, deps, '/api/communications/announcements', service.listAnnouncements, {
    config: use,
    tags,
    summary: 'Announcements addressed to the caller, newest first (keyset: cursor)',
    querystring: announcementListQuery,
    response: { 200: announcementPage, ...errors },
  });
  r.get(
    '/api/communications/announcements/audiences',
    {
      config: announce,
      schema: {
        tags,
        summary: 'Whom the caller may address: everyone, organizations, departments',
        response: { 200: announcementAudiences, ...errors },
      },
    },
    async (request) => service.announcementAudiences(contextOf(request, deps)),
  );
  r.post(
    '/api/communications/announcements',
    {
      config: announce,
      schema: {
        tags,
        summary: "Publish an announcement to everyone, an organization or a department within the caller's scope",
        body: createAnnouncementInput,
        response: { 201: announcement, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await service.createAnnouncement(contextOf(request, deps), request.body)),
  );
  r.post(
    '/api/communications/announcements/read-all',
    {
      config: use,
      schema: {
        tags,
        summary: 'Mark every announcement addressed to the caller read',
        response: { 200: communicationsUnread, ...errors },
      },
    },
    async (request) => service.markAllAnnouncementsRead(contextOf(request, deps)),
  );
  r.post(
    '/api/communications/announcements/:id/read',
    {
      config: use,
      schema: {
        tags,
        summary: 'Mark an announcement read',
        params: idParam,
        response: { 200: announcement, ...errors },
      },
    },
    async (request) => service.markAnnouncementRead(contextOf(request, deps), request.params.id),
  );

  // --- conversations
  r.get(
    '/api/communications/conversations',
    {
      config: use,
      schema: {
        tags,
        summary: "The caller's conversations, most recently active first, with unread counts",
        response: { 200: conversationList, ...errors },
      },
    },
    async (request) => service.listConversations(contextOf(request, deps)),
  );
  r.post(
    '/api/communications/conversations',
    {
      config: use,
      schema: {
        tags,
        summary: 'Start a direct conversation (one person; the existing one is returned) or a group',
        body: createConversationInput,
        response: { 200: conversation, ...errors },
      },
    },
    async (request) => service.createConversation(contextOf(request, deps), request.body),
  );
  getRoute(r, deps, '/api/communications/conversations/:id', (ctx, { id }) => service.getConversation(ctx, id), {
    config: use,
    tags,
    summary: 'One conversation (members only)',
    params: idParam,
    response: { 200: conversation, ...errors },
  });
  r.get(
    '/api/communications/conversations/:id/messages',
    {
      config: use,
      schema: {
        tags,
        summary: 'Message history, newest first (keyset: cursor reads on to older ones)',
        params: idParam,
        querystring: messageListQuery,
        response: { 200: messagePage, ...errors },
      },
    },
    async (request) => service.listMessages(contextOf(request, deps), request.params.id, request.query),
  );
  r.post(
    '/api/communications/conversations/:id/messages',
    {
      config: use,
      schema: {
        tags,
        summary: 'Send a message; @username notifies a member',
        params: idParam,
        body: sendMessageInput,
        response: { 201: message, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await service.sendMessage(contextOf(request, deps), request.params.id, request.body)),
  );
  r.post(
    '/api/communications/conversations/:id/files',
    {
      config: use,
      schema: {
        tags,
        summary:
          'Send one image or PDF (multipart field "file", at most 10 MB) with an optional caption (field "body", before the file)',
        consumes: ['multipart/form-data'],
        params: idParam,
        response: { 201: message, ...errors, 413: errorResponse },
      },
    },
    async (request, reply) => {
      const ctx = contextOf(request, deps);
      const file = await receiveFile(request, { what: 'the file', missing: 'Choose a file to send' }, () =>
        service.precheckMember(ctx, request.params.id),
      );
      const caption = uploadField(file, 'body', attachmentCaption);
      const upload = await readUpload(file);
      return reply.code(201).send(await sendFile(ctx, request.params.id, upload, caption));
    },
  );
  r.get(
    '/api/communications/conversations/:id/attachments/:aid',
    {
      config: use,
      schema: { tags, summary: 'A file sent in the conversation (members only)', params: conversationParams },
    },
    async (request, reply) => {
      const file = await service.openAttachment(contextOf(request, deps), request.params.id, request.params.aid);
      reply
        .header('Content-Disposition', contentDisposition(file.fileName))
        .header('X-Content-Type-Options', 'nosniff')
        .header('Cache-Control', 'no-store')
        .header('Content-Length', String(file.size))
        .type(file.contentType);
      return reply.send(file.stream);
    },
  );
  r.post(
    '/api/communications/conversations/:id/read',
    {
      config: use,
      schema: {
        tags,
        summary: 'Mark the conversation read up to its newest message',
        params: idParam,
        response: { 200: conversation, ...errors },
      },
    },
    async (request) => service.markConversationRead(contextOf(request, deps), request.params.id),
  );
}
