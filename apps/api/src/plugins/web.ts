import { existsSync } from 'node:fs';
import path from 'node:path';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/**
 * Serves the built single-page app; any GET outside /api that is not a file gets index.html
 * so client-side routes load. Unknown /api paths answer 404 JSON.
 */
export default fp(
  async function webPlugin(app: FastifyInstance, { webDist }: { webDist: string | undefined }) {
    const hasWeb = webDist !== undefined && existsSync(path.join(webDist, 'index.html'));
    if (hasWeb) {
      await app.register(fastifyStatic, {
        root: webDist,
        wildcard: false,
        index: false,
        // The build writes a .br and a .gz beside each text file; the one the browser accepts is
        // sent as it is (with Vary: Accept-Encoding), so nothing is compressed per request.
        preCompressed: true,
        setHeaders(res, filePath) {
          // Hashed assets never change; index.html always revalidates.
          res.header(
            'cache-control',
            filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
          );
        },
      });
    }
    app.setNotFoundHandler((request, reply) => {
      const url = request.url.split('?')[0] ?? '/';
      if (url.startsWith('/api') || request.method !== 'GET' || !hasWeb) {
        return reply.code(404).send({ message: `Route ${request.method} ${url} not found`, code: 'NOT_FOUND' });
      }
      if (path.extname(url) !== '') {
        return reply.code(404).type('text/plain').send('Not found');
      }
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    });
  },
  { name: 'outlay-web' },
);
