import fp from 'fastify-plugin';
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** Below this a response fits in a packet or two anyway, and compressing it costs more than it saves. */
export const COMPRESSION_THRESHOLD = 1024;

/**
 * Text and JSON (including +json and +xml types) are worth compressing. Live events are left
 * alone: a compressor buffers, and an event must reach the browser when it happens. Binary
 * downloads (XLSX, PDF, images, octet-stream backups) are already compressed or not worth it;
 * for anything not listed here the plugin asks mime-db, which calls those incompressible.
 */
const COMPRESSIBLE = /^(?:text\/(?!event-stream)|application\/(?:[\w.+-]+\+)?(?:json|xml|javascript)(?:;|$))/i;

/**
 * Compresses API responses above the threshold with brotli or gzip, whichever the client prefers.
 * The web app's files are compressed at build time; @fastify/static serves those variants and
 * this plugin leaves a response that already has a Content-Encoding as it is.
 */
export default fp(
  async function compressionPlugin(app: FastifyInstance) {
    await app.register(compress, {
      threshold: COMPRESSION_THRESHOLD,
      encodings: ['br', 'gzip'],
      customTypes: (type: string) => COMPRESSIBLE.test(type),
      // Request bodies stay as they are: the API takes JSON and multipart, never compressed uploads.
      globalDecompression: false,
    });
  },
  { name: 'outlay-compression' },
);
