import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../lib/context.ts';

export async function auditRoutes(_app: FastifyInstance, _options: { deps: AppDeps }) {}
