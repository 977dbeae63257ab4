import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';
import type { FastifyInstance } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Tokens live in localStorage (seed), so script injection must be impossible: no inline or
 * third-party script, ever (docs/product.md §2.6). Inline *styles* stay allowed because Radix
 * positions popovers with them; they cannot run code.
 */
export const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  upgradeInsecureRequests: null,
};

const HELMET_OPTIONS: HelmetOptions = {
  contentSecurityPolicy: { directives: CONTENT_SECURITY_POLICY },
  crossOriginEmbedderPolicy: false,
  strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
  referrerPolicy: { policy: 'no-referrer' },
};

/**
 * helmet decides the headers; they do not depend on the request, so they are worked out once
 * here rather than by helmet's middleware on every response (it re-parses the policy each
 * time, a quarter of the authenticated hot path's CPU; see docs/decisions/004).
 */
export function securityHeaders(options: HelmetOptions = HELMET_OPTIONS): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: string) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  } as unknown as ServerResponse;
  helmet(options)({} as IncomingMessage, res, () => {});
  return Object.freeze(headers) as Record<string, string>;
}

/** Where the build's hashed scripts, styles and fonts are served (apps/api/src/plugins/web.ts). */
export const ASSET_PREFIX = '/assets/';

/**
 * A hashed script or stylesheet needs only the headers that guard how it is read: no sniffing it as
 * another type, no reading it from another site. The document policies (CSP, framing, HSTS, referrer)
 * act on the page that loads it, not on it, and repeating their kilobyte on each of a screen's
 * dozens of files costs a phone on a slow network a noticeable part of its first load.
 */
export function assetSecurityHeaders(headers: Record<string, string>): Record<string, string> {
  const kept = ['x-content-type-options', 'cross-origin-resource-policy'];
  return Object.freeze(
    Object.fromEntries(Object.entries(headers).filter(([name]) => kept.includes(name.toLowerCase()))),
  );
}

/**
 * An API answer is data, never a page: it gets the headers OWASP's REST guidance names for one. A
 * policy that lets nothing load or run and forbids framing, whatever a browser might make of the
 * body; no sniffing; HSTS; no referrer; same-origin reads only; and no caching, since every answer
 * is personal. The policies that shape how a document behaves (its opener, its agent cluster, DNS
 * prefetching, legacy download and XSS switches) act on pages only, and every API call would
 * otherwise carry their half kilobyte.
 */
export function apiSecurityHeaders(headers: Record<string, string>): Record<string, string> {
  const kept = [
    'strict-transport-security',
    'x-content-type-options',
    'referrer-policy',
    'cross-origin-resource-policy',
  ];
  return Object.freeze({
    ...Object.fromEntries(Object.entries(headers).filter(([name]) => kept.includes(name.toLowerCase()))),
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'x-frame-options': 'DENY',
    'cache-control': 'no-store',
  });
}

/** Where the API answers data; its documentation pages (`/api/docs`) are pages. */
function isApiAnswer(url: string): boolean {
  return url.startsWith('/api/') && !url.startsWith('/api/docs');
}

export default fp(
  async function securityPlugin(app: FastifyInstance) {
    const headers = securityHeaders();
    const assetHeaders = assetSecurityHeaders(headers);
    const apiHeaders = apiSecurityHeaders(headers);
    // Synchronous: every answer passes here, and an async hook costs a promise each time.
    app.addHook('onRequest', (request, reply, done) => {
      reply.headers(
        isApiAnswer(request.url) ? apiHeaders : request.url.startsWith(ASSET_PREFIX) ? assetHeaders : headers,
      );
      done();
    });
  },
  { name: 'outlay-security' },
);
