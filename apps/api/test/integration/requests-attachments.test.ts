import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { ATTACHMENT_MAX_BYTES, ATTACHMENT_MESSAGES } from '@outlay/contracts';
import { auditEvents, categories, requestAttachments, requestEvents, spendingRequests, users } from '@outlay/db';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';
import { rowsOf } from '../../src/lib/sql.ts';

let t: TestContext;
let rita: Session;
let max: Session;
let nina: Session;
let carla: Session;
let categoryId: string;

beforeAll(async () => {
  t = await createTestApp();
  const [travel] = await t.db.select().from(categories).where(eq(categories.code, 'TRV'));
  categoryId = travel!.id;
  const [adam] = await t.db.select().from(users).where(eq(users.username, 'adam'));
  await t.db
    .update(users)
    .set({
      passwordHash: adam!.passwordHash,
      requirePasswordChange: false,
      hasChangedPassword: true,
      tempPasswordExpiresAt: null,
    })
    .where(eq(users.username, 'nina'));
  [rita, max, nina, carla] = [
    await login(t.app, 'rita'),
    await login(t.app, 'max'),
    await login(t.app, 'nina'),
    await login(t.app, 'carla'),
  ];
});
afterAll(async () => t.close());

async function newDraft(s: Session = rita): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/requests',
    headers: s.headers,
    payload: { title: 'Taxi to the port', amount: '45.00', currency: 'USD', categoryId },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

/** A multipart/form-data body with one file field, built by hand. */
function multipart(fileName: string, contentType: string, data: Buffer) {
  const boundary = `----outlay-test-${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: ${contentType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    payload: Buffer.concat([head, data, tail]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

function upload(s: Session, requestId: string, fileName: string, contentType: string, data: Buffer) {
  const body = multipart(fileName, contentType, data);
  return t.app.inject({
    method: 'POST',
    url: `/api/requests/${requestId}/attachments`,
    headers: { ...s.headers, ...body.headers },
    payload: body.payload,
  });
}

const png = () =>
  sharp({ create: { width: 800, height: 400, channels: 3, background: '#2255aa' } })
    .png()
    .toBuffer();
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

describe('attachments', () => {
  it('stores a PNG by its content, makes a JPEG thumbnail and streams both to those who may see the request', async () => {
    const id = await newDraft();
    const bytes = await png();
    const res = await upload(rita, id, 'receipt.png', 'image/png', bytes);
    expect(res.statusCode, res.body).toBe(201);
    const a = res.json();
    expect(a).toMatchObject({
      fileName: 'receipt.png',
      contentType: 'image/png',
      size: bytes.length,
      hasThumbnail: true,
      uploadedBy: { name: 'Rita Alvarez' },
      url: `/api/requests/${id}/attachments/${a.id}/content`,
      thumbnailUrl: `/api/requests/${id}/attachments/${a.id}/thumbnail`,
    });
    const [row] = await t.db.select().from(requestAttachments).where(eq(requestAttachments.id, a.id));
    expect(row!.storageKey).toMatch(new RegExp(`^requests/${id}/[0-9a-f-]{36}$`));
    expect(row!.thumbnailKey).toBe(`${row!.storageKey}-thumb`);
    expect(row!.sha256).toMatch(/^[0-9a-f]{64}$/);

    const content = await t.app.inject({ method: 'GET', url: a.url, headers: rita.headers });
    expect(content.statusCode).toBe(200);
    expect(content.headers['content-type']).toBe('image/png');
    expect(content.headers['x-content-type-options']).toBe('nosniff');
    // A receipt is a personal document: never kept by a browser or a proxy.
    expect(content.headers['cache-control']).toBe('no-store');
    expect(content.headers['content-disposition']).toContain(
      'inline; filename="receipt.png"; filename*=UTF-8\'\'receipt.png',
    );
    expect(Buffer.compare(content.rawPayload, bytes)).toBe(0);

    const thumb = await t.app.inject({ method: 'GET', url: a.thumbnailUrl, headers: rita.headers });
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/jpeg');
    const meta = await sharp(thumb.rawPayload).metadata();
    expect(meta.format).toBe('jpeg');
    expect(Math.max(meta.width!, meta.height!)).toBe(320);

    // Approvers in scope may look; a requester of another organization may not.
    expect((await t.app.inject({ method: 'GET', url: a.url, headers: max.headers })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: a.url, headers: carla.headers })).statusCode).toBe(200);
    const denied = await t.app.inject({ method: 'GET', url: a.url, headers: nina.headers });
    expect(denied.statusCode).toBe(404);
    expect(denied.json().message).toBe('Request not found');
    expect((await t.app.inject({ method: 'GET', url: a.thumbnailUrl, headers: nina.headers })).statusCode).toBe(404);

    const detail = (await t.app.inject({ method: 'GET', url: `/api/requests/${id}`, headers: rita.headers })).json();
    expect(detail.attachmentsCount).toBe(1);
    expect(detail.attachments.map((x: { id: string }) => x.id)).toEqual([a.id]);
    expect(detail.timeline.map((e: { type: string }) => e.type)).toEqual(['created', 'attachment_added']);
    const audit = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, id), eq(auditEvents.action, 'request.attachment_added')));
    expect(audit).toHaveLength(1);
  });

  it('accepts a PDF, names files by what they are and refuses disguised text', async () => {
    const id = await newDraft();
    const pdf = await upload(rita, id, 'Invoice März.pdf', 'application/pdf', PDF);
    expect(pdf.statusCode, pdf.body).toBe(201);
    expect(pdf.json()).toMatchObject({
      fileName: 'Invoice März.pdf',
      contentType: 'application/pdf',
      hasThumbnail: false,
      thumbnailUrl: null,
    });
    const content = await t.app.inject({ method: 'GET', url: pdf.json().url, headers: rita.headers });
    expect(content.headers['content-type']).toBe('application/pdf');
    expect(content.headers['content-disposition']).toContain("filename*=UTF-8''Invoice%20M%C3%A4rz.pdf");
    const noThumb = await t.app.inject({
      method: 'GET',
      url: `/api/requests/${id}/attachments/${pdf.json().id}/thumbnail`,
      headers: rita.headers,
    });
    expect(noThumb.statusCode).toBe(404);

    // PNG bytes under a .pdf name are stored as the PNG they are.
    const disguisedImage = await upload(rita, id, 'scan.pdf', 'application/pdf', await png());
    expect(disguisedImage.statusCode).toBe(201);
    expect(disguisedImage.json()).toMatchObject({ contentType: 'image/png', fileName: 'scan.png', hasThumbnail: true });

    const text = await upload(
      rita,
      id,
      'x.pdf',
      'application/pdf',
      Buffer.from('just some text pretending to be a PDF\n'.repeat(20)),
    );
    expect(text.statusCode).toBe(400);
    expect(text.json().message).toBe(ATTACHMENT_MESSAGES.type);
    const html = await upload(rita, id, 'x.png', 'image/png', Buffer.from('<html><script>alert(1)</script></html>'));
    expect(html.statusCode).toBe(400);
  });

  it('refuses a file over 10 MB with 413', async () => {
    const id = await newDraft();
    const big = Buffer.alloc(ATTACHMENT_MAX_BYTES + 1, 0);
    (await png()).copy(big); // a real PNG header, so only the size is wrong
    const res = await upload(rita, id, 'huge.png', 'image/png', big);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', message: ATTACHMENT_MESSAGES.size });
    expect(await t.db.select().from(requestAttachments).where(eq(requestAttachments.requestId, id))).toHaveLength(0);
  });

  it('answers a clean 4xx without a multipart body, and refuses others and closed requests', async () => {
    const id = await newDraft();
    const empty = await t.app.inject({ method: 'POST', url: `/api/requests/${id}/attachments`, headers: rita.headers });
    expect(empty.statusCode).toBe(400);
    const json = await t.app.inject({
      method: 'POST',
      url: `/api/requests/${id}/attachments`,
      headers: rita.headers,
      payload: { file: 'x' },
    });
    expect(json.statusCode).toBe(400);
    const pdf = PDF;
    expect((await upload(max, id, 'a.pdf', 'application/pdf', pdf)).statusCode).toBe(403);
    expect((await upload(nina, id, 'a.pdf', 'application/pdf', pdf)).statusCode).toBe(404);
    await t.db.update(spendingRequests).set({ status: 'approved' }).where(eq(spendingRequests.id, id));
    const closed = await upload(rita, id, 'a.pdf', 'application/pdf', pdf);
    expect(closed.statusCode).toBe(409);
    expect(closed.json().message).toBe('Files cannot be attached while the request is approved');
  });

  it('removes an attachment of a draft (requester only), with its files, audited', async () => {
    const id = await newDraft();
    const a = (await upload(rita, id, 'receipt.png', 'image/png', await png())).json();
    const url = `/api/requests/${id}/attachments/${a.id}`;
    expect((await t.app.inject({ method: 'DELETE', url, headers: max.headers })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'DELETE', url, headers: nina.headers })).statusCode).toBe(404);
    const [row] = await t.db.select().from(requestAttachments).where(eq(requestAttachments.id, a.id));
    const res = await t.app.inject({ method: 'DELETE', url, headers: rita.headers });
    expect(res.statusCode).toBe(204);
    expect(await t.db.select().from(requestAttachments).where(eq(requestAttachments.id, a.id))).toHaveLength(0);
    expect((await t.app.inject({ method: 'GET', url: `${url}/content`, headers: rita.headers })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url, headers: rita.headers })).statusCode).toBe(404);
    const events = await t.db.select().from(requestEvents).where(eq(requestEvents.requestId, id));
    expect(events.map((e) => e.type)).toEqual(['created', 'attachment_added', 'attachment_removed']);
    const audit = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, id), eq(auditEvents.action, 'request.attachment_removed')));
    expect((audit[0]!.before as { fileName: string }).fileName).toBe(row!.fileName);

    // Pending: files can be added but not removed.
    const b = (await upload(rita, id, 'receipt.png', 'image/png', await png())).json();
    await t.db.update(spendingRequests).set({ status: 'pending' }).where(eq(spendingRequests.id, id));
    const pending = await t.app.inject({
      method: 'DELETE',
      url: `/api/requests/${id}/attachments/${b.id}`,
      headers: rita.headers,
    });
    expect(pending.statusCode).toBe(409);
    expect((await upload(rita, id, 'more.pdf', 'application/pdf', PDF)).statusCode).toBe(201);
  });

  it('marks the request as having a receipt from its first attachment until its last is removed, and the spend aggregate with it', async () => {
    const id = await newDraft();
    const receiptFlag = async () =>
      (
        await t.db
          .select({ has: spendingRequests.hasReceipt })
          .from(spendingRequests)
          .where(eq(spendingRequests.id, id))
      )[0]!.has;
    const aggregateFlags = async () =>
      rowsOf<{ has_receipt: boolean; n: number }>(
        await t.db
          .execute(sql`SELECT s.has_receipt, s.request_count::int AS n FROM spend_monthly s JOIN spending_requests r
            ON r.organization_id = s.organization_id AND r.category_id IS NOT DISTINCT FROM s.category_id AND r.department_id IS NOT DISTINCT FROM s.department_id
           AND s.status = r.status AND s.decided_month IS NULL AND s.vendor_id IS NULL AND s.currency = r.currency
           AND s.submitted_month = to_char(coalesce(r.submitted_at, r.created_at) AT TIME ZONE 'UTC', 'YYYY-MM')
           WHERE r.id = ${id}`),
      );
    expect(await receiptFlag()).toBe(false);
    const before = await aggregateFlags();
    expect(before.filter((r) => !r.has_receipt).length).toBe(1);

    const a = (await upload(rita, id, 'receipt.png', 'image/png', await png())).json();
    const b = (await upload(rita, id, 'invoice.pdf', 'application/pdf', PDF)).json();
    expect(await receiptFlag()).toBe(true);
    const withReceipt = await aggregateFlags();
    expect(withReceipt.find((r) => r.has_receipt)?.n).toBeGreaterThanOrEqual(1);
    expect(withReceipt.find((r) => !r.has_receipt)?.n ?? 0).toBe((before.find((r) => !r.has_receipt)?.n ?? 0) - 1);

    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/requests/${id}/attachments/${a.id}`, headers: rita.headers }))
        .statusCode,
    ).toBe(204);
    expect(await receiptFlag()).toBe(true);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/requests/${id}/attachments/${b.id}`, headers: rita.headers }))
        .statusCode,
    ).toBe(204);
    expect(await receiptFlag()).toBe(false);
    expect(await aggregateFlags()).toEqual(before);
  });
});

// PGlite runs one transaction at a time; the race needs two connections.
describe.skipIf(!process.env.TEST_DATABASE_URL)('the receipt flag under concurrent uploads and removals', () => {
  const insertFile = (db: TestContext['db'], requestId: string) =>
    db.execute(sql`INSERT INTO request_attachments (request_id, file_name, content_type, size, sha256, storage_key, uploaded_by_id)
        SELECT id, 'scan.pdf', 'application/pdf', 1000, repeat('0', 64), 'race/' || gen_random_uuid(), requester_id FROM spending_requests WHERE id = ${requestId}`);
  const flag = async (requestId: string) =>
    (
      await t.db
        .select({ has: spendingRequests.hasReceipt })
        .from(spendingRequests)
        .where(eq(spendingRequests.id, requestId))
    )[0]!.has;
  const filesOf = (requestId: string) =>
    t.db.select().from(requestAttachments).where(eq(requestAttachments.requestId, requestId));
  /** Resolves once `query` (a count) is above zero or `over()` holds, asked again on every turn of the event loop. */
  const until = async (query: ReturnType<typeof sql>, over: () => boolean = () => false) => {
    while (!over()) {
      const [row] = rowsOf<{ n: number }>(await t.db.execute(query));
      if (row!.n > 0) return;
      await new Promise((r) => setImmediate(r));
    }
  };
  const anotherSessionWrote = sql`SELECT count(*)::int AS n FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
      WHERE c.relname = 'request_attachments' AND l.mode = 'RowExclusiveLock' AND l.pid <> pg_backend_pid()`;
  const anotherSessionWaits = sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`;

  /**
   * An upload to `id` that writes its row and holds its transaction open (failing at the end when
   * `fails`), a removal of `remove` started while it is open, and the upload let go once the
   * removal waits for it.
   */
  async function race(id: string, remove: ReturnType<typeof sql>, fails: boolean) {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const upload = t.db
      .transaction(async (tx) => {
        await insertFile(tx, id);
        await held;
        if (fails) throw new Error('the upload failed after writing its row');
      })
      .then(
        () => 'committed',
        (e: Error) => e.message,
      );
    await until(anotherSessionWrote);
    // A drizzle query runs when awaited: start it now, wait for it below.
    let removed = false;
    const removal = (async () => {
      await t.db.execute(remove);
      removed = true;
    })();
    // Without the request's lock the removal would not wait: it finishes first, and the flag shows it.
    await until(anotherSessionWaits, () => removed);
    release();
    await removal;
    return upload;
  }

  it('keeps the flag when a file is uploaded while the last other one is removed', async () => {
    const id = await newDraft();
    await insertFile(t.db, id);
    const [only] = await filesOf(id);
    expect(await race(id, sql`DELETE FROM request_attachments WHERE id = ${only!.id}`, false)).toBe('committed');
    expect(await filesOf(id)).toHaveLength(1);
    expect(await flag(id)).toBe(true);
  });

  it('clears the flag when the last file is removed while an upload to the request fails', async () => {
    const id = await newDraft();
    await insertFile(t.db, id);
    expect(await race(id, sql`DELETE FROM request_attachments WHERE request_id = ${id}`, true)).toBe(
      'the upload failed after writing its row',
    );
    expect(await filesOf(id)).toHaveLength(0);
    expect(await flag(id)).toBe(false);
  });
});
