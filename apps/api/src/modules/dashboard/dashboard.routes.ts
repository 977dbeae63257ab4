import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../lib/context.ts';

export async function dashboardRoutes(_app: FastifyInstance, _opts: { deps: AppDeps }) {}
