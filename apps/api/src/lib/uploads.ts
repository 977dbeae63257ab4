import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { AppError } from './app-error.ts';
import { parseField } from './input.ts';

export interface UploadRefusal {
  /** What the body should carry, as in "Send the receipt as multipart/form-data". */
  what: string;
  /** Said on the field "file" when there is none. */
  missing: string;
}

/**
 * The one file of an upload route's multipart body. A body that is not multipart is refused
 * before `precheck` runs, and a body without a file part after it, so a caller who may not upload
 * is refused before any bytes are read; both are a 400 on the field "file".
 */
export async function receiveFile(
  request: FastifyRequest,
  refusal: UploadRefusal,
  precheck?: () => Promise<void>,
): Promise<MultipartFile> {
  if (!request.isMultipart()) {
    throw new AppError('VALIDATION_ERROR', {
      message: `Send ${refusal.what} as multipart/form-data`,
      details: [{ path: 'file', message: refusal.missing }],
    });
  }
  await precheck?.();
  const file = await request.file();
  if (!file)
    throw new AppError('VALIDATION_ERROR', {
      message: refusal.missing,
      details: [{ path: 'file', message: refusal.missing }],
    });
  return file;
}

/** A text field sent before the file ('' when absent), validated with its contract schema. */
export function uploadField<S extends z.ZodType>(file: MultipartFile, name: string, schema: S): z.output<S> {
  const field = file.fields[name];
  const raw = field && !Array.isArray(field) && field.type === 'field' ? String(field.value ?? '') : '';
  return parseField(schema, raw, name);
}
