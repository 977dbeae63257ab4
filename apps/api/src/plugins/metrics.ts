import { createHash, timingSafeEqual } from 'node:crypto';
import fp from 'fastify-plugin';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { AppError } from '../lib/app-error.ts';
import type { Metrics } from '../lib/metrics.ts';
import errorsPlugin from './errors.ts';

export const METRICS_PATH = '/metrics';

/** Probes and scrapes come every few seconds and say nothing about the service's latency. */
const UNTIMED_ROUTES = new Set(['/api/health', '/api/ready', METRICS_PATH]);

/** Compared as digests, so neither the content nor the length of the token leaks through timing. */
function sameToken(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

function scrapeHandler(metrics: Metrics, token: string | undefined) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (token !== undefined) {
      const header = request.headers.authorization;
      const given = header?.startsWith('Bearer ') ? header.slice(7).trim() : '';
      if (!given || !sameToken(given, token)) {
        throw new AppError('UNAUTHORIZED', {
          message: 'Metrics need the metrics token: send it as "Authorization: Bearer <METRICS_TOKEN>"',
          headers: { 'www-authenticate': 'Bearer realm="metrics"' },
        });
      }
    }
    const body = await metrics.registry.metrics();
    return reply.header('cache-control', 'no-store').type(metrics.registry.contentType).send(body);
  };
}

export interface MetricsOptions {
  metrics: Metrics | undefined;
  /** Serve /metrics on this (public) app behind this bearer token. */
  token: string | undefined;
}

/**
 * Counts and times every answer of the public app by its route pattern (never the raw URL, so
 * ids do not multiply the series) and serves /metrics there when a token protects it. Without
 * a token /metrics answers 404 with how to turn it on: it is never public unauthenticated.
 */
export default fp(
  async function metricsPlugin(app: FastifyInstance, { metrics, token }: MetricsOptions) {
    if (metrics) {
      const { httpRequests, httpDuration } = metrics;
      // One synchronous hook on the hot path: Fastify already measured the time (elapsedTime), so
      // there is no timer to start per request; a label lookup and two increments remain.
      app.addHook('onResponse', (request, reply, done) => {
        const route = request.routeOptions.url ?? 'unmatched';
        const labels = { method: request.method, route, status_code: reply.statusCode };
        httpRequests.inc(labels);
        if (!UNTIMED_ROUTES.has(route)) httpDuration.observe(labels, reply.elapsedTime / 1000);
        done();
      });
    }
    if (metrics && token !== undefined) {
      app.get(METRICS_PATH, { config: { access: 'public' }, schema: { hide: true } }, scrapeHandler(metrics, token));
    } else {
      app.get(METRICS_PATH, { config: { access: 'public' }, schema: { hide: true } }, async () => {
        throw new AppError('NOT_FOUND', {
          message: metrics
            ? 'Metrics are served on the internal metrics port (METRICS_PORT), not here'
            : 'Metrics are off: set METRICS_TOKEN to serve them here behind a bearer token, or METRICS_PORT for an internal port',
        });
      });
    }
  },
  { name: 'outlay-metrics', dependencies: ['outlay-errors'] },
);

/**
 * The internal listener of METRICS_PORT: /metrics and nothing else, behind the token too when
 * one is set. Its own scrapes are not counted.
 */
export async function buildMetricsApp(metrics: Metrics, token: string | undefined): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  await app.register(errorsPlugin);
  app.get(METRICS_PATH, scrapeHandler(metrics, token));
  return app;
}
