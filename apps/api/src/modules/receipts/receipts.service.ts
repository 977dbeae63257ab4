import type { MultipartFile } from '@fastify/multipart';
import { fileTypeFromBuffer } from 'file-type';
import { RECEIPT_MESSAGES, RECEIPT_TYPES, type ReceiptScan } from '@outlay/contracts';
import { AppError } from '../../lib/app-error.ts';
import { requireAuth, type Ctx } from '../../lib/context.ts';
import { prepareForOcr } from './receipts.image.ts';
import { recognize } from './receipts.ocr.ts';
import { parseReceipt, type TextLine } from './receipts.parser.ts';
import { readPdf } from './receipts.pdf.ts';

function refuse(message: string): AppError {
  return new AppError('VALIDATION_ERROR', { message, details: [{ path: 'file', message }] });
}

/** Reads the one uploaded file into memory (the multipart limit stops it at the maximum size). */
export async function readUpload(file: MultipartFile): Promise<Buffer> {
  let data: Buffer;
  try {
    data = await file.toBuffer();
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
      throw new AppError('PAYLOAD_TOO_LARGE', { message: RECEIPT_MESSAGES.size });
    throw error;
  }
  if (file.file.truncated) throw new AppError('PAYLOAD_TOO_LARGE', { message: RECEIPT_MESSAGES.size });
  if (data.length === 0) throw refuse(RECEIPT_MESSAGES.empty);
  return data;
}

/** The lines OCR reads from one image; a picture sharp cannot decode is refused as unreadable. */
async function ocrLines(image: Buffer): Promise<TextLine[]> {
  let prepared: Buffer;
  try {
    prepared = (await prepareForOcr(image)).image;
  } catch {
    throw refuse(RECEIPT_MESSAGES.unreadable);
  }
  return (await recognize(prepared)).lines;
}

/**
 * Reads a receipt: a PDF's text layer when it has one, else OCR of the photo or of the rendered
 * scan; then the fields. A PDF with neither text nor anything drawn answers 200 with every field
 * null (there is simply nothing printed to read), not an error.
 */
export async function scanReceipt(ctx: Ctx, data: Buffer): Promise<ReceiptScan> {
  requireAuth(ctx);
  return readReceipt(data, (error) => ctx.log.info({ err: error }, 'receipt PDF could not be read'));
}

/** The reading itself, without a caller (the accuracy test and the bench run it on the sample set). */
export async function readReceipt(data: Buffer, onPdfError: (error: unknown) => void = () => {}): Promise<ReceiptScan> {
  const type = (await fileTypeFromBuffer(data))?.mime;
  if (!type || !(RECEIPT_TYPES as readonly string[]).includes(type)) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', {
      message: RECEIPT_MESSAGES.type,
      details: [{ path: 'file', message: RECEIPT_MESSAGES.type }],
    });
  }
  let lines: TextLine[];
  if (type === 'application/pdf') {
    let pdf;
    try {
      pdf = await readPdf(data);
    } catch (error) {
      onPdfError(error);
      throw refuse(RECEIPT_MESSAGES.unreadable);
    }
    lines = pdf.lines;
    for (const image of pdf.images) lines = lines.concat(await ocrLines(image));
  } else {
    lines = await ocrLines(data);
  }
  const fields = parseReceipt(lines);
  return {
    ...fields,
    text: lines
      .map((l) => l.text.trimEnd())
      .join('\n')
      .trim(),
  };
}
