import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  backup,
  backupDryRun,
  backupList,
  backupRestoreInput,
  backupRestoreResult,
  backupSchedule,
  backupScheduleInput,
  errorResponse,
  idParam,
} from '@outlay/contracts';
import { contextOf, type AppDeps } from '../../lib/context.ts';
import { getRoute } from '../../lib/list-routes.ts';
import * as restore from './backups.restore.ts';
import * as service from './backups.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };
const access = { access: 'backups.manage' as const };
// The backups and their manifests (never a file's contents): also for a settings reader.
const read = { access: ['backups.manage', 'settings.read'] as const };
const tags = ['backups'];

export async function backupsRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // A backup being written finishes before the server closes, so no half file is left behind.
  app.addHook('onClose', async () => service.settleBackups());

  r.get(
    '/api/backups',
    {
      config: read,
      schema: { tags, summary: 'Backups, newest first, with the schedule', response: { 200: backupList, ...errors } },
    },
    async (request) => service.listBackups(contextOf(request, deps)),
  );
  r.post(
    '/api/backups',
    {
      config: access,
      schema: {
        tags,
        summary:
          'Start a backup now (202): the file is written in the background; the backup reads `running` until it is `ready` or `failed`',
        response: { 202: backup, ...errors },
      },
    },
    async (request, reply) => reply.code(202).send(await service.createBackup(contextOf(request, deps))),
  );
  getRoute(r, deps, '/api/backups/:id', (ctx, { id }) => service.getBackup(ctx, id), {
    config: read,
    tags,
    summary: 'One backup and its manifest',
    params: idParam,
    response: { 200: backup, ...errors },
  });
  r.get(
    '/api/backups/:id/download',
    {
      config: access,
      schema: {
        tags,
        summary: 'The backup file (gzip of JSON lines), streamed (step-up; API keys refused)',
        params: idParam,
      },
    },
    async (request, reply) => {
      const file = await service.openBackup(contextOf(request, deps), request.params.id);
      reply
        .header('Content-Disposition', `attachment; filename="${file.fileName}"`)
        .header('X-Content-Type-Options', 'nosniff')
        .header('Cache-Control', 'no-store')
        .header('Content-Length', String(file.size))
        .type('application/gzip');
      return reply.send(file.stream);
    },
  );
  r.delete(
    '/api/backups/:id',
    {
      config: access,
      schema: {
        tags,
        summary: 'Delete a backup and its file (audited)',
        params: idParam,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await service.deleteBackup(contextOf(request, deps), request.params.id);
      return reply.code(204).send(null);
    },
  );
  r.put(
    '/api/backups/schedule',
    {
      config: access,
      schema: {
        tags,
        summary: 'Scheduled backups: off, daily or weekly, and how many to keep (audited)',
        body: backupScheduleInput,
        response: { 200: backupSchedule, ...errors },
      },
    },
    async (request) => service.saveSchedule(contextOf(request, deps), request.body),
  );
  r.post(
    '/api/backups/:id/dry-run',
    {
      config: access,
      schema: {
        tags,
        summary:
          'Check a backup for a restore without changing anything: checksum, schema version, rows per table now and in the backup',
        params: idParam,
        response: { 200: backupDryRun, ...errors },
      },
    },
    async (request) => restore.dryRun(contextOf(request, deps), request.params.id),
  );
  r.post(
    '/api/backups/:id/restore',
    {
      config: access,
      schema: {
        tags,
        summary:
          "Replace the whole database with a backup (step-up; `confirm` is the backup's name). Checksum and schema version are checked first (409); every session ends; audited",
        params: idParam,
        body: backupRestoreInput,
        response: { 200: backupRestoreResult, ...errors },
      },
    },
    async (request) => restore.restore(contextOf(request, deps), request.params.id, request.body),
  );
}
