import fp from 'fastify-plugin';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { ErrorBody } from '@outlay/contracts';
import { AppError } from '../lib/app-error.ts';
import { dataErrorMessage, databaseUnavailable, rootMessage } from '../lib/db-errors.ts';

interface ValidationIssue {
  instancePath?: string;
  message?: string;
}

function send(request: FastifyRequest, reply: FastifyReply, status: number, body: ErrorBody) {
  if (request.routeOptions.config?.plainTextErrors) {
    return reply.code(status).type('text/plain; charset=utf-8').send(body.message);
  }
  return reply.code(status).send(body);
}

export interface ErrorsOptions {
  /**
   * Called with each error the API answers 5xx for (not a database outage's 503: there is no
   * database to record it in). Awaited before the answer; it must not throw.
   */
  onServerError?: (request: FastifyRequest, error: Error) => Promise<void>;
}

/**
 * One error shape, `{ message, code, details? }` (docs/product.md §6.7): zod failures become 400 with
 * field paths, 5xx text is hidden and logged with the request id.
 */
export default fp<ErrorsOptions>(
  async function errorsPlugin(app: FastifyInstance, options: ErrorsOptions) {
    app.setErrorHandler(async (error: FastifyError, request, reply) => {
      if (error instanceof AppError) {
        if (error.headers) reply.headers(error.headers);
        return send(request, reply, error.status, {
          message: error.message,
          code: error.code,
          ...(error.details === undefined ? {} : { details: error.details }),
        });
      }
      if (hasZodFastifySchemaValidationErrors(error)) {
        const issues = (error.validation as ValidationIssue[]).map((issue) => ({
          path: (issue.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.'),
          message: issue.message ?? 'Invalid value',
        }));
        return send(request, reply, 400, {
          message: issues[0]?.message ?? 'Invalid request',
          code: 'VALIDATION_ERROR',
          details: issues,
        });
      }
      if (isResponseSerializationError(error)) {
        request.log.error({ err: error }, 'response failed its schema');
        await options.onServerError?.(request, error);
        return send(request, reply, 500, { message: 'Internal Server Error', code: 'INTERNAL_ERROR' });
      }
      // The database went away, is restarting or is saturated: a retry may well succeed, so
      // 503 with Retry-After rather than a 500 that reads as a bug.
      const unavailable = databaseUnavailable(error);
      if (unavailable) {
        // One short line, not a stack: a saturated pool refuses hundreds of requests at once.
        request.log.warn({ kind: unavailable.kind, cause: rootMessage(error) }, 'database unavailable');
        reply.header('retry-after', String(unavailable.retryAfter));
        return send(request, reply, 503, { message: unavailable.message, code: 'SERVICE_UNAVAILABLE' });
      }
      const dataError = dataErrorMessage(error);
      if (dataError) {
        request.log.warn({ err: error }, 'the database refused a value');
        return send(request, reply, 400, { message: dataError, code: 'INVALID_VALUE' });
      }
      const status = error.statusCode ?? 500;
      if (status >= 500) {
        request.log.error({ err: error }, 'request failed');
        await options.onServerError?.(request, error);
        return send(request, reply, status, { message: 'Internal Server Error', code: 'INTERNAL_ERROR' });
      }
      // Fastify's own 4xx (malformed JSON, body too large, unsupported media type).
      const code =
        status === 413
          ? 'PAYLOAD_TOO_LARGE'
          : status === 415
            ? 'UNSUPPORTED_MEDIA_TYPE'
            : status === 429
              ? 'TOO_MANY_ATTEMPTS'
              : 'BAD_REQUEST';
      return send(request, reply, status, { message: error.message, code });
    });
  },
  { name: 'outlay-errors' },
);
