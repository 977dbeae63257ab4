import type { FastifyRequest } from 'fastify';
import Negotiator from 'negotiator';

/** The language tags the caller's browser asks for (Accept-Language), most wanted first. */
export function browserLanguages(request: Pick<FastifyRequest, 'headers'>): string[] {
  const header = request.headers['accept-language'];
  if (!header) return [];
  // A header is short; a longer one is not a browser's and is not worth reading.
  return new Negotiator({ headers: { 'accept-language': header.slice(0, 512) } })
    .languages()
    .filter((tag) => tag !== '*');
}
