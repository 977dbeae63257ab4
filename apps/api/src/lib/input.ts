import type { FastifyRequest } from 'fastify';
import type { FastifySchemaCompiler } from 'fastify/types/schema.js';
import { validatorCompiler as zodValidatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { UNSAFE_TEXT_MESSAGE, unsafeTextPaths } from '@outlay/contracts';
import { AppError } from './app-error.ts';

/**
 * Every string a route receives (body, query, path, headers it declares) is refused when it
 * holds a NUL or a lone surrogate, before the route's own schema runs. One definition for all
 * routes, at the layer that already turns schema failures into 400 with field paths, so a field
 * declared with a bare `z.string()` cannot carry such text to PostgreSQL (which refuses it with
 * an error that would otherwise surface as a 500).
 */
const safeText = z.unknown().superRefine((data, ctx) => {
  for (const path of unsafeTextPaths(data)) ctx.addIssue({ code: 'custom', path, message: UNSAFE_TEXT_MESSAGE });
});

export const validatorCompiler: FastifySchemaCompiler<z.ZodType> = (route) => {
  if (!(route.schema instanceof z.ZodType)) return zodValidatorCompiler(route);
  return zodValidatorCompiler({ ...route, schema: safeText.pipe(route.schema) });
};

const UTF8 = new Set(['utf-8', 'utf8']);

/**
 * Bodies are read as UTF-8. A request that says its body is in another charset would be
 * misread silently, so it is refused (415) instead.
 */
export async function requireUtf8Body(request: FastifyRequest): Promise<void> {
  const type = request.headers['content-type'];
  if (!type) return;
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(type)?.[1]?.toLowerCase();
  if (charset && !UTF8.has(charset)) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', {
      message: `Send the body as UTF-8 (charset=${charset} is not supported)`,
      details: [{ path: 'content-type', message: 'Only UTF-8 is accepted' }],
    });
  }
}

/**
 * Validates a value a route reads itself (a multipart text field) as a route schema would: the
 * same NUL and surrogate check first, and a failure answers as a schema failure does (400
 * VALIDATION_ERROR, the first message, every issue with its path under `field`).
 */
export function parseField<S extends z.ZodType>(schema: S, value: unknown, field: string): z.output<S> {
  const result = safeText.pipe(schema).safeParse(value);
  if (result.success) return result.data;
  const details = result.error.issues.map((issue) => ({
    path: [field, ...issue.path].join('.'),
    message: issue.message,
  }));
  throw new AppError('VALIDATION_ERROR', { message: details[0]!.message, details });
}
