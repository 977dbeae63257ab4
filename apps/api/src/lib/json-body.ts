import type { FastifyInstance } from 'fastify';
import { AppError } from './app-error.ts';

/**
 * The deepest a JSON body may nest. No request of ours comes near it (the organization tree and
 * policy conditions stay within a dozen levels); a body nested thousands deep only exists to
 * exhaust the stack of whatever walks it after the parse (validation, the prototype check).
 */
export const JSON_MAX_DEPTH = 64;

/**
 * How deep a JSON text nests, counted over the raw text before anything parses it, stopping as
 * soon as the limit is passed. Brackets inside strings do not count.
 */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > limit) return true;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) depth--;
  }
  return false;
}

/**
 * Replaces Fastify's JSON parser with the same parser (its prototype-poisoning checks kept)
 * behind a depth check, so a hostile body is refused with 400 before it is parsed or validated.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (jsonDepthExceeds(text, JSON_MAX_DEPTH)) {
      done(
        new AppError('BAD_REQUEST', {
          message: `The JSON body nests deeper than ${JSON_MAX_DEPTH} levels`,
          details: [{ path: '', message: `At most ${JSON_MAX_DEPTH} levels of nesting are accepted` }],
        }),
        undefined,
      );
      return;
    }
    parse(request, text, done);
  });
}
