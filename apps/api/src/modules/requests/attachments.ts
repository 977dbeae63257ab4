import { createHash, randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { MultipartFile } from '@fastify/multipart';
import { fileTypeFromBuffer } from 'file-type';
import {
  ATTACHMENT_MAX_PER_REQUEST,
  ATTACHMENT_MESSAGES,
  ATTACHMENT_TYPES,
  REQUEST_STATUS_LABELS,
  type Attachment,
  type RequestStatus,
} from '@outlay/contracts';
import type { Db } from '@outlay/db';
import { AppError } from '../../lib/app-error.ts';
import { writeAudit } from '../../lib/audit.ts';
import { requireAuth, type Ctx } from '../../lib/context.ts';
import { sharp } from '../../lib/images.ts';
import { recordRequestEvent } from '../../lib/notify.ts';
import * as repo from './requests.repository.ts';
import * as writes from './requests.writes.ts';
import { findVisibleRequest, requireRequester } from './requests.access.ts';
import { attachmentUrls } from './requests.detail.ts';

const ATTACH_STATUSES: readonly RequestStatus[] = ['draft', 'pending', 'info_requested'];
const REMOVE_STATUSES: readonly RequestStatus[] = ['draft', 'info_requested'];
const THUMBNAIL_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'];
const THUMBNAIL_SIZE = 320;
const ATTACHMENT_NOT_FOUND = 'Attachment not found';

const EXTENSION: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'application/pdf': 'pdf',
};

/** A display name without folders or control characters, whose extension tells the truth. */
export function cleanFileName(raw: string | undefined, contentType: string): string {
  const base = path.basename((raw ?? '').replaceAll('\\', '/'));
  let name = base
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f"]/g, '')
    .trim()
    .slice(0, 180);
  const ext = EXTENSION[contentType]!;
  const stem = name.includes('.') ? name.slice(0, name.lastIndexOf('.')) : name;
  const given = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1).toLowerCase() : '';
  const same = given === ext || (ext === 'jpg' && given === 'jpeg');
  if (!same) name = `${stem || 'attachment'}.${ext}`;
  if (name.startsWith('.')) name = `attachment${name}`;
  return name;
}

function refuseStatus(status: RequestStatus, doing: string): AppError {
  return new AppError('CONFLICT', {
    message: `Files cannot be ${doing} while the request is ${REQUEST_STATUS_LABELS[status].toLowerCase()}`,
  });
}

async function checkCanAttach(ctx: Ctx, requestId: string, db: Db, forUpdate: boolean) {
  const auth = requireAuth(ctx);
  const r = await findVisibleRequest(ctx, requestId, db, { forUpdate });
  requireRequester(auth, r, 'attach files to');
  if (!ATTACH_STATUSES.includes(r.status)) throw refuseStatus(r.status, 'attached');
  if ((await repo.countAttachments(db, requestId)) >= ATTACHMENT_MAX_PER_REQUEST) {
    throw new AppError('CONFLICT', { message: ATTACHMENT_MESSAGES.count });
  }
  return r;
}

/** Reads the one uploaded file into memory (the multipart limit stops it at the maximum size). */
export async function readUpload(file: MultipartFile): Promise<{ fileName: string; data: Buffer }> {
  let data: Buffer;
  try {
    data = await file.toBuffer();
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
      throw new AppError('PAYLOAD_TOO_LARGE', { message: ATTACHMENT_MESSAGES.size });
    throw error;
  }
  if (file.file.truncated) throw new AppError('PAYLOAD_TOO_LARGE', { message: ATTACHMENT_MESSAGES.size });
  if (data.length === 0)
    throw new AppError('VALIDATION_ERROR', {
      message: 'The file is empty',
      details: [{ path: 'file', message: 'The file is empty' }],
    });
  return { fileName: file.filename, data };
}

/** Refuses early (before the bytes are read) when the caller cannot attach to this request. */
export async function precheckAttach(ctx: Ctx, requestId: string): Promise<void> {
  await checkCanAttach(ctx, requestId, ctx.db, false);
}

export async function addAttachment(
  ctx: Ctx,
  requestId: string,
  upload: { fileName: string; data: Buffer },
): Promise<Attachment> {
  const auth = requireAuth(ctx);
  const detected = await fileTypeFromBuffer(upload.data);
  const contentType = detected?.mime;
  if (!contentType || !(ATTACHMENT_TYPES as readonly string[]).includes(contentType)) {
    throw new AppError('VALIDATION_ERROR', {
      message: ATTACHMENT_MESSAGES.type,
      details: [{ path: 'file', message: ATTACHMENT_MESSAGES.type }],
    });
  }
  let thumbnail: Buffer | null = null;
  if (THUMBNAIL_TYPES.includes(contentType)) {
    try {
      thumbnail = await sharp()(upload.data, { limitInputPixels: 100_000_000 })
        .rotate()
        .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'inside', withoutEnlargement: true })
        .flatten({ background: '#ffffff' })
        .jpeg({ quality: 80 })
        .toBuffer();
    } catch (error) {
      ctx.log.warn({ err: error }, 'thumbnail could not be made');
      thumbnail = null;
    }
  }
  const fileName = cleanFileName(upload.fileName, contentType);
  const storageKey = `requests/${requestId}/${randomUUID()}`;
  const thumbnailKey = thumbnail ? `${storageKey}-thumb` : null;
  await ctx.storage.put(storageKey, upload.data);
  if (thumbnail && thumbnailKey) await ctx.storage.put(thumbnailKey, thumbnail);
  try {
    return await ctx.db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      await checkCanAttach(ctx, requestId, tx, true);
      const row = await writes.insertAttachment(tx, {
        requestId,
        fileName,
        contentType,
        size: upload.data.length,
        sha256: createHash('sha256').update(upload.data).digest('hex'),
        storageKey,
        thumbnailKey,
        uploadedById: auth.userId,
        createdAt: ctx.now,
      });
      const summary = { id: row.id, fileName, contentType, size: row.size, sha256: row.sha256 };
      await writeAudit(
        tx,
        {
          actorId: auth.userId,
          action: 'request.attachment_added',
          entityType: 'spending_request',
          entityId: requestId,
          ip: ctx.ip,
          userAgent: ctx.userAgent,
          after: summary,
        },
        ctx.now,
      );
      await recordRequestEvent(
        tx,
        { requestId, type: 'attachment_added', actorId: auth.userId, note: fileName, data: summary },
        ctx.now,
      );
      return {
        id: row.id,
        fileName,
        contentType,
        size: row.size,
        hasThumbnail: thumbnailKey !== null,
        uploadedBy: { id: auth.userId, name: await repo.userName(tx, auth.userId) },
        createdAt: row.createdAt.toISOString(),
        ...attachmentUrls(requestId, row.id, thumbnailKey !== null),
      };
    });
  } catch (error) {
    await ctx.storage.delete(storageKey).catch(() => {});
    if (thumbnailKey) await ctx.storage.delete(thumbnailKey).catch(() => {});
    throw error;
  }
}

/** The bytes of an attachment (or its preview) for a caller who may see the request. */
export async function openAttachment(
  ctx: Ctx,
  requestId: string,
  attachmentId: string,
  which: 'content' | 'thumbnail',
): Promise<{ stream: Readable; size: number; contentType: string; fileName: string }> {
  await findVisibleRequest(ctx, requestId);
  const a = await repo.findAttachment(ctx.db, { requestId, id: attachmentId });
  if (!a) throw new AppError('NOT_FOUND', { message: ATTACHMENT_NOT_FOUND });
  const key = which === 'content' ? a.storageKey : a.thumbnailKey;
  if (!key) throw new AppError('NOT_FOUND', { message: 'This attachment has no preview' });
  const file = await ctx.storage.get(key);
  if (!file) throw new AppError('NOT_FOUND', { message: 'The file of this attachment is missing' });
  const fileName = which === 'content' ? a.fileName : `${a.fileName.replace(/\.[^.]*$/, '')}-preview.jpg`;
  return { ...file, contentType: which === 'content' ? a.contentType : 'image/jpeg', fileName };
}

export async function removeAttachment(ctx: Ctx, requestId: string, attachmentId: string): Promise<void> {
  const auth = requireAuth(ctx);
  const removed = await ctx.db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const r = await findVisibleRequest(ctx, requestId, tx, { forUpdate: true });
    requireRequester(auth, r, 'remove files from');
    const a = await repo.findAttachment(tx, { requestId, id: attachmentId });
    if (!a) throw new AppError('NOT_FOUND', { message: ATTACHMENT_NOT_FOUND });
    if (!REMOVE_STATUSES.includes(r.status)) throw refuseStatus(r.status, 'removed');
    await writes.deleteAttachment(tx, a.id);
    const summary = { id: a.id, fileName: a.fileName, contentType: a.contentType, size: a.size, sha256: a.sha256 };
    await writeAudit(
      tx,
      {
        actorId: auth.userId,
        action: 'request.attachment_removed',
        entityType: 'spending_request',
        entityId: requestId,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        before: summary,
      },
      ctx.now,
    );
    await recordRequestEvent(
      tx,
      { requestId, type: 'attachment_removed', actorId: auth.userId, note: a.fileName, data: summary },
      ctx.now,
    );
    return a;
  });
  await ctx.storage.delete(removed.storageKey).catch(() => {});
  if (removed.thumbnailKey) await ctx.storage.delete(removed.thumbnailKey).catch(() => {});
}
