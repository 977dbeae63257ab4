import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../lib/context.ts';

export async function budgetsRoutes(_app: FastifyInstance, _opts: { deps: AppDeps }) {}
