import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { RECEIPT_MAX_BYTES, RECEIPT_MESSAGES, errorResponse, receiptScan } from '@outlay/contracts';
import { contextOf, type AppDeps } from '../../lib/context.ts';
import { receiveFile } from '../../lib/uploads.ts';
import { closeOcr } from './receipts.ocr.ts';
import * as service from './receipts.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 413: errorResponse, 415: errorResponse };

export async function receiptsRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  // Encapsulated: only this plugin's route parses multipart bodies.
  await app.register(multipart, { limits: { fileSize: RECEIPT_MAX_BYTES, files: 1, fields: 2, parts: 3 } });
  app.addHook('onClose', async () => closeOcr());
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/api/receipts/scan',
    {
      // Reading a receipt is the first step of creating a request from it.
      config: { access: 'requests.create' },
      schema: {
        tags: ['receipts'],
        summary:
          'Read a receipt (multipart field "file": PNG, JPEG or PDF, at most 10 MB): merchant, date, total, tax, currency with confidences',
        consumes: ['multipart/form-data'],
        response: { 200: receiptScan, ...errors },
      },
    },
    async (request) => {
      const ctx = contextOf(request, deps);
      const file = await receiveFile(request, { what: 'the receipt', missing: RECEIPT_MESSAGES.missing });
      return service.scanReceipt(ctx, await service.readUpload(file));
    },
  );
}
