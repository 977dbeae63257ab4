// A file sent in a conversation: checked by its content (the request attachments' types and
// size), put in the file storage, then written as a message with its caption. The bytes are
// stored first and removed again when the message cannot be written.
import { createHash, randomUUID } from 'node:crypto';
import { fileTypeFromBuffer } from 'file-type';
import { ATTACHMENT_MESSAGES, ATTACHMENT_TYPES, type Message } from '@outlay/contracts';
import { AppError } from '../../lib/app-error.ts';
import type { Ctx } from '../../lib/context.ts';
import { cleanFileName } from '../requests/index.ts';
import { sendMessage } from './communications.service.ts';

export async function sendFile(
  ctx: Ctx,
  conversationId: string,
  upload: { fileName: string; data: Buffer },
  caption: string,
): Promise<Message> {
  const detected = await fileTypeFromBuffer(upload.data);
  const contentType = detected?.mime;
  if (!contentType || !(ATTACHMENT_TYPES as readonly string[]).includes(contentType)) {
    throw new AppError('VALIDATION_ERROR', {
      message: ATTACHMENT_MESSAGES.type,
      details: [{ path: 'file', message: ATTACHMENT_MESSAGES.type }],
    });
  }
  const storageKey = `conversations/${conversationId}/${randomUUID()}`;
  await ctx.storage.put(storageKey, upload.data);
  try {
    return await sendMessage(
      ctx,
      conversationId,
      { body: caption },
      {
        fileName: cleanFileName(upload.fileName, contentType),
        contentType,
        size: upload.data.length,
        sha256: createHash('sha256').update(upload.data).digest('hex'),
        storageKey,
      },
    );
  } catch (error) {
    await ctx.storage.delete(storageKey).catch(() => {});
    throw error;
  }
}
