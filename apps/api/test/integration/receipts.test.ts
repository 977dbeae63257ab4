import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, login, nextIp, type Session, type TestContext } from '../helpers.ts';
import { RECEIPT_SET_DIR } from '../receipts/receipt-set.ts';

let t: TestContext;
let rita: Session;
let adam: Session;

beforeAll(async () => {
  t = await createTestApp();
  [rita, adam] = await Promise.all([login(t.app, 'rita'), login(t.app, 'adam')]);
});
afterAll(async () => t.close());

/** A multipart/form-data body with one file, built by hand. */
function multipart(fileName: string, contentType: string, data: Buffer, field = 'file') {
  const boundary = `----outlay${Math.random().toString(16).slice(2)}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\nContent-Type: ${contentType}\r\n\r\n`,
    ),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const scan = (headers: Record<string, string>, body: { payload: Buffer; headers: Record<string, string> }) =>
  t.app.inject({
    method: 'POST',
    url: '/api/receipts/scan',
    headers: { ...headers, ...body.headers },
    payload: body.payload,
  });
const sample = (file: string) => readFile(path.join(RECEIPT_SET_DIR, file));

/** A one-page PDF with nothing on it: no text layer, no image. */
function blankPdf(): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 300] >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body);
}

describe('POST /api/receipts/scan', () => {
  it('reads a photographed receipt into the contract: fields, confidences and the text', async () => {
    const res = await scan(rita.headers, multipart('coffee.jpg', 'image/jpeg', await sample('us-coffee-photo.jpg')));
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      merchant: 'Blue Bottle Coffee',
      date: '2026-03-07',
      total: '20.60',
      tax: '1.40',
      currency: 'USD',
    });
    for (const field of ['merchant', 'date', 'total', 'tax', 'currency']) {
      expect(body.confidence[field]).toBeGreaterThanOrEqual(0);
      expect(body.confidence[field]).toBeLessThanOrEqual(1);
    }
    expect(body.text).toContain('TOTAL');
  }, 60_000);

  it('reads the text layer of a PDF, comma decimals and all', async () => {
    const res = await scan(
      rita.headers,
      multipart('botin.pdf', 'application/pdf', await sample('es-restaurant-text.pdf')),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ date: '2026-02-18', total: '64.50', tax: '5.41', currency: 'EUR' });
    expect(res.json().confidence.total).toBeGreaterThan(0.9);
  });

  it('answers a PDF with no text and nothing drawn with every field null, never a guess', async () => {
    const res = await scan(rita.headers, multipart('blank.pdf', 'application/pdf', blankPdf()));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ merchant: null, date: null, total: null, tax: null, currency: null, text: '' });
  }, 60_000);

  it('refuses a file that is not a PNG, JPEG or PDF with 415, whatever its name says', async () => {
    const res = await scan(
      rita.headers,
      multipart('receipt.png', 'image/png', Buffer.from('just some text, not a picture')),
    );
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: 'A receipt must be a PNG or JPEG photo or a PDF',
    });
  });

  it('refuses an empty file, a body that is not multipart, and a missing file part with 400', async () => {
    const empty = await scan(rita.headers, multipart('r.png', 'image/png', Buffer.alloc(0)));
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('The file is empty');
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/receipts/scan',
      headers: rita.headers,
      payload: { file: 'x' },
    });
    expect(json.statusCode).toBe(400);
    expect(json.json().message).toBe('Send the receipt as multipart/form-data');
  });

  it('refuses a 20 MB file with 413', async () => {
    const res = await scan(rita.headers, multipart('big.jpg', 'image/jpeg', Buffer.alloc(20 * 1024 * 1024, 0xff)));
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe('A receipt may be at most 10 MB');
  });

  it('refuses a broken PDF and a broken image with 400, not a server error', async () => {
    const pdf = await scan(
      rita.headers,
      multipart('broken.pdf', 'application/pdf', Buffer.from('%PDF-1.4\n1 0 obj garbage')),
    );
    expect(pdf.statusCode, pdf.body).toBe(400);
    expect(pdf.json().message).toBe('This file could not be read as an image or PDF');
    const png = (await sample('us-taxi.png')).subarray(0, 200);
    const image = await scan(rita.headers, multipart('cut.png', 'image/png', png));
    expect(image.statusCode, image.body).toBe(400);
  });

  it('needs a session, and an API key needs requests.create', async () => {
    const anonymous = await scan({}, multipart('r.png', 'image/png', await sample('us-taxi.png')));
    expect(anonymous.statusCode).toBe(401);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/api-keys',
      headers: adam.headers,
      payload: { name: 'Vendors only', permissions: ['vendors.manage'] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const body = multipart('r.png', 'image/png', await sample('us-taxi.png'));
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/receipts/scan',
      remoteAddress: nextIp(),
      payload: body.payload,
      headers: { authorization: `Bearer ${created.json().key}`, ...body.headers },
    });
    expect(res.statusCode, res.body).toBe(403);
  });
});
