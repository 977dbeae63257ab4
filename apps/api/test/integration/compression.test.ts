import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { ROLES, grantsFor } from '@outlay/contracts';
import { buildApp } from '../../src/app.ts';
import { createDeps } from '../../src/lib/deps.ts';
import type { AppDeps } from '../../src/lib/context.ts';
import { COMPRESSION_THRESHOLD } from '../../src/plugins/compression.ts';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';

// A built web app as the build leaves it: a hashed script with its .br and .gz beside it.
const SCRIPT = `export const rows = [${Array.from({ length: 400 }, (_, i) => `{ id: ${i}, label: "row ${i}" }`).join(', ')}];\n`;
const SCRIPT_FILE = 'assets/index-Abc123.js';

let t: TestContext;
let deps: AppDeps;
let app: FastifyInstance;
let webDist: string;
let base: string;
let adam: Session;

beforeAll(async () => {
  webDist = mkdtempSync(path.join(tmpdir(), 'outlay-web-'));
  mkdirSync(path.join(webDist, 'assets'));
  writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><html><body><div id="root"></div></body></html>');
  writeFileSync(path.join(webDist, SCRIPT_FILE), SCRIPT);
  writeFileSync(path.join(webDist, `${SCRIPT_FILE}.br`), brotliCompressSync(SCRIPT));
  writeFileSync(path.join(webDist, `${SCRIPT_FILE}.gz`), gzipSync(SCRIPT));

  t = await createTestApp();
  deps = await createDeps(t.handle, { clock: t.clock.now });
  app = await buildApp({ deps, webDist });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  adam = await login(app, 'adam');
});
afterAll(async () => {
  app.server.closeAllConnections();
  await app.close();
  await deps.events.close();
  await t.close();
  rmSync(webDist, { recursive: true, force: true });
});

describe("static files: the build's compressed copies, chosen by Accept-Encoding", () => {
  it("sends the brotli copy to a browser that takes brotli, with the script's type, its own length and immutable caching", async () => {
    const res = await app.inject({
      method: 'GET',
      url: `/${SCRIPT_FILE}`,
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    expect(res.rawPayload.length).toBeLessThan(Buffer.byteLength(SCRIPT) / 4);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(SCRIPT);
  });

  it('sends a script only the headers that guard how it is read, and the page the document policies', async () => {
    const script = await app.inject({ method: 'GET', url: `/${SCRIPT_FILE}`, headers: { 'accept-encoding': 'br' } });
    expect(script.headers['x-content-type-options']).toBe('nosniff');
    expect(script.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(script.headers['content-security-policy']).toBeUndefined();
    expect(script.headers['strict-transport-security']).toBeUndefined();
    const page = await app.inject({ method: 'GET', url: '/' });
    expect(page.statusCode).toBe(200);
    expect(String(page.headers['content-security-policy'])).toContain("script-src 'self'");
    expect(page.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(page.headers['strict-transport-security']).toMatch(/max-age=31536000/);
  });

  it('sends the gzip copy when only gzip is accepted, and the plain file when nothing is', async () => {
    const gz = await app.inject({ method: 'GET', url: `/${SCRIPT_FILE}`, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(Number(gz.headers['content-length'])).toBe(gz.rawPayload.length);
    expect(gunzipSync(gz.rawPayload).toString()).toBe(SCRIPT);

    const plain = await app.inject({ method: 'GET', url: `/${SCRIPT_FILE}` });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    expect(Number(plain.headers['content-length'])).toBe(Buffer.byteLength(SCRIPT));
    expect(plain.body).toBe(SCRIPT);
  });

  it('answers 304 to a revalidation with the ETag it gave', async () => {
    const first = await app.inject({ method: 'GET', url: `/${SCRIPT_FILE}`, headers: { 'accept-encoding': 'br' } });
    const etag = first.headers.etag;
    expect(etag).toBeTruthy();
    const again = await app.inject({
      method: 'GET',
      url: `/${SCRIPT_FILE}`,
      headers: { 'accept-encoding': 'br', 'if-none-match': String(etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
  });

  it('still serves the app page for client-side routes, revalidated on every visit', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/budget-vs-actual',
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toContain('<div id="root">');
  });
});

describe('API responses: compressed above the threshold', () => {
  it('compresses a list of vendors with brotli or gzip, and the same JSON comes out', async () => {
    const url = '/api/vendors?pageSize=100';
    const plain = await app.inject({ method: 'GET', url, headers: adam.headers });
    expect(plain.statusCode, plain.body).toBe(200);
    expect(plain.rawPayload.length).toBeGreaterThan(COMPRESSION_THRESHOLD);
    expect(plain.headers['content-encoding']).toBeUndefined();

    const br = await app.inject({
      method: 'GET',
      url,
      headers: { ...adam.headers, 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['content-type']).toMatch(/^application\/json/);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());

    const gz = await app.inject({ method: 'GET', url, headers: { ...adam.headers, 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(plain.json());
  });

  it('leaves a small answer as it is', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/health', headers: { 'accept-encoding': 'gzip, br' } });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.length).toBeLessThan(COMPRESSION_THRESHOLD);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json()).toMatchObject({ status: expect.any(String) });
  });

  it('the signed-in user, which skips the compressor, stays under the threshold for the role with every permission', async () => {
    const most = ROLES.reduce((a, b) => (Object.keys(grantsFor(b)).length > Object.keys(grantsFor(a)).length ? b : a));
    expect(most).toBe('owner');
    const olivia = await login(app, 'olivia');
    const res = await app.inject({
      method: 'GET',
      url: '/api/auth/user',
      headers: { ...olivia.headers, 'accept-encoding': 'gzip, br' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().permissions).toHaveLength(Object.keys(grantsFor('owner')).length);
    expect(res.rawPayload.length).toBeLessThan(COMPRESSION_THRESHOLD);
    expect(res.headers['content-encoding']).toBeUndefined();
  });

  it('compresses a CSV export but sends an XLSX (already a zip) as it is', async () => {
    const csv = await app.inject({
      method: 'GET',
      url: '/api/vendors/export?format=csv',
      headers: { ...adam.headers, 'accept-encoding': 'br' },
    });
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(csv.rawPayload).toString()).toMatch(/^\uFEFFName,Tax ID,/);

    const xlsx = await app.inject({
      method: 'GET',
      url: '/api/vendors/export?format=xlsx',
      headers: { ...adam.headers, 'accept-encoding': 'gzip, br' },
    });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    expect(xlsx.rawPayload.length).toBeGreaterThan(COMPRESSION_THRESHOLD);
    expect(xlsx.headers['content-encoding']).toBeUndefined();
    // A zip file starts with "PK".
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });

  it('never compresses the live event stream, so each event arrives when it is sent', async () => {
    const controller = new AbortController();
    const res = await fetch(`${base}/api/events/stream`, {
      headers: { ...adam.headers, 'accept-encoding': 'gzip, br' },
      signal: controller.signal,
    });
    try {
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/event-stream');
      expect(res.headers.get('content-encoding')).toBeNull();
      const reader = res.body!.getReader();
      const { value } = await reader.read();
      expect(new TextDecoder().decode(value)).toMatch(/^retry: \d+\n/);
    } finally {
      controller.abort();
    }
  });
});
