import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../lib/context.ts';

export async function securityRoutes(_app: FastifyInstance, _options: { deps: AppDeps }) {}
