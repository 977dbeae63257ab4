import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { SECURITY_SCHEMES, transform, transformObject } from './openapi.document.ts';

/**
 * swagger-ui's own policy lets any site frame the docs' origin, loads badges from
 * validator.swagger.io and styles and fonts from any https origin. The docs ship every asset
 * themselves, so they get the app's rules: no framing, nothing from a third party.
 */
export function docsContentSecurityPolicy(header: string): string {
  return header
    .split(';')
    .map((directive) => directive.trim())
    .filter(Boolean)
    .map((directive) => {
      const [name, ...sources] = directive.split(/\s+/);
      if (name === 'frame-ancestors') return "frame-ancestors 'none'";
      const own = sources.filter((source) => source.startsWith("'") || source === 'data:');
      return [name, ...own].join(' ');
    })
    .join('; ');
}

/** The OpenAPI document of every route, generated from the same zod schemas that validate them. */
export default fp(
  async function openapiPlugin(app: FastifyInstance) {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: { title: 'Outlay API', description: 'Expense and approvals for multi-company groups', version: '0.1.0' },
        servers: [{ url: '/', description: 'This server' }],
        components: { securitySchemes: SECURITY_SCHEMES },
      },
      transform,
      transformObject,
    });
    await app.register(swaggerUi, {
      routePrefix: '/api/docs',
      staticCSP: true,
      transformStaticCSP: docsContentSecurityPolicy,
      uiConfig: { docExpansion: 'list', deepLinking: true },
    });
  },
  { name: 'outlay-openapi' },
);
