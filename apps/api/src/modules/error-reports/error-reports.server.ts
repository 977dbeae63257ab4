import type { FastifyRequest } from 'fastify';
import { ERROR_REPORT_LIMITS } from '@outlay/contracts';
import type { AppDeps } from '../../lib/context.ts';
import { browserOf, fingerprintOf } from './error-reports.fingerprint.ts';
import { recordOccurrence } from './error-reports.service.ts';
import { reserveServerError } from './error-reports.throttle.ts';

// PostgreSQL text holds neither NUL nor a lone surrogate (which a cut can leave); an error's own text may carry both.
// eslint-disable-next-line no-control-regex -- removing the NUL control character is the point
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const storable = (value: string, max: number) => value.slice(0, max).replace(UNSTORABLE, '\ufffd');

/**
 * Puts a 5xx the API answered into the same inbox as the web app's errors. What is stored is
 * for admins only: the client got "Internal Server Error" and nothing of this. Recording is
 * best effort; a failure to record is logged and never changes the answer.
 */
export async function recordServerError(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  request: FastifyRequest,
  error: Error,
): Promise<void> {
  // A database that answers slowly must not hold the client's 500 back: past this the recording
  // finishes (or fails) on its own.
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, RECORD_WAIT_MS);
    timer.unref();
  });
  await Promise.race([record(deps, request, error), waited]);
  clearTimeout(timer);
}

export const RECORD_WAIT_MS = 1000;

async function record(deps: Pick<AppDeps, 'db' | 'clock'>, request: FastifyRequest, error: Error): Promise<void> {
  try {
    const now = deps.clock();
    if (!(await reserveServerError(deps.db, now))) return;
    const route = `${request.method} ${request.routeOptions.url ?? 'unmatched route'}`;
    const message = storable(`${error.name}: ${error.message}`, ERROR_REPORT_LIMITS.message);
    const stack = error.stack ? storable(error.stack, ERROR_REPORT_LIMITS.stack) : null;
    const userAgent = request.headers['user-agent']
      ? storable(request.headers['user-agent'], ERROR_REPORT_LIMITS.userAgent)
      : null;
    await recordOccurrence(
      { db: deps.db, now },
      {
        fingerprint: fingerprintOf('server', message, stack, route),
        source: 'server',
        message,
        route,
        browser: browserOf(userAgent),
        stack,
        componentStack: null,
        userAgent,
        userId: request.auth?.userId ?? null,
        at: now,
      },
    );
  } catch (recordError) {
    request.log.warn({ err: recordError }, 'could not record a server error');
  }
}
