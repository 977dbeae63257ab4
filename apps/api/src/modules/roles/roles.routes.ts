import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../lib/context.ts';

export async function rolesRoutes(_app: FastifyInstance, _options: { deps: AppDeps }) {}
