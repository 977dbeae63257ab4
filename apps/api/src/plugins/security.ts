import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * Tokens live in localStorage (seed), so script injection must be impossible: no inline or
 * third-party script, ever (PRODUCT §2.6). Inline *styles* stay allowed because Radix
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

export default fp(
  async function securityPlugin(app: FastifyInstance) {
    await app.register(helmet, {
      contentSecurityPolicy: { directives: CONTENT_SECURITY_POLICY },
      crossOriginEmbedderPolicy: false,
      strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
      referrerPolicy: { policy: 'no-referrer' },
    });
    // API answers are personal: never cached by a browser or a proxy.
    app.addHook('onSend', async (request, reply) => {
      if (request.url.startsWith('/api/') && !request.url.startsWith('/api/docs')) reply.header('cache-control', 'no-store');
    });
  },
  { name: 'outlay-security' },
);
