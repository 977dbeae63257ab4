import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { deferredChildLogger, loggerOptions, redactUrl } from './logging.ts';

describe('redactUrl', () => {
  it('hides the values of secret-looking query parameters and keeps the rest', () => {
    expect(redactUrl('/api/requests?page=2&token=abc.def&status=pending')).toBe(
      '/api/requests?page=2&token=[redacted]&status=pending',
    );
    expect(redactUrl('/x?access_token=a&refreshToken=b&api_key=c&code=d&sig=e&currency=USD')).toBe(
      '/x?access_token=[redacted]&refreshToken=[redacted]&api_key=[redacted]&code=[redacted]&sig=[redacted]&currency=USD',
    );
    expect(redactUrl('/x?%74oken=abc')).toBe('/x?%74oken=[redacted]');
    expect(redactUrl('/api/health')).toBe('/api/health');
    expect(redactUrl('/x?flag&currencyCode=EUR')).toBe('/x?flag&currencyCode=EUR');
  });

  it("hides a calendar feed link, whose token is its path, and keeps the calendar screen's own calls", () => {
    expect(redactUrl('/api/calendar/VFUW1ryVF8mGoQ_C_un7dBl3be7UmzS2fw1cps-CM80.ics')).toBe('/api/calendar/[redacted]');
    expect(redactUrl('/api/calendar/abc.ics?x=1')).toBe('/api/calendar/[redacted]?x=1');
    expect(redactUrl('/api/calendar/feed')).toBe('/api/calendar/feed');
    expect(redactUrl('/api/calendar/upcoming')).toBe('/api/calendar/upcoming');
    expect(redactUrl('/api/calendar/import/preview')).toBe('/api/calendar/import/preview');
  });
});

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, stream };
}

describe('the request log', () => {
  it('never writes a token sent in the query string', async () => {
    const { lines, stream } = capture();
    const app = Fastify({ logger: { ...loggerOptions('info'), stream }, childLoggerFactory: deferredChildLogger });
    app.get('/api/thing', async () => ({ ok: true }));
    const res = await app.inject({
      method: 'GET',
      url: '/api/thing?access_token=s3cr3t-value&page=1',
      headers: { authorization: 'Bearer also-secret' },
    });
    expect(res.statusCode).toBe(200);
    await app.close();
    const log = lines.join('');
    expect(log).toContain('/api/thing?access_token=[redacted]&page=1');
    expect(log).not.toContain('s3cr3t-value');
    expect(log).not.toContain('also-secret');
  });
});

describe("a request's logger, made when it first writes", () => {
  it('writes what a child would, with the request id, at the levels that are on', async () => {
    const { lines, stream } = capture();
    const app = Fastify({ logger: { ...loggerOptions('warn'), stream }, childLoggerFactory: deferredChildLogger });
    app.get('/quiet', async (request) => {
      request.log.info('below the level');
      return { ok: true };
    });
    app.get('/loud', async (request) => {
      request.log.warn({ detail: 1 }, 'a warning');
      request.log.child({ step: 'inner' }).error('an error');
      return { level: request.log.level };
    });
    expect((await app.inject({ method: 'GET', url: '/quiet' })).statusCode).toBe(200);
    expect(lines).toEqual([]);
    const loud = await app.inject({ method: 'GET', url: '/loud' });
    expect(loud.json()).toEqual({ level: 'warn' });
    await app.close();
    const entries = lines.map((l) => JSON.parse(l));
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({ level: 40, msg: 'a warning', detail: 1, reqId: expect.any(String) });
    expect(entries[1]).toMatchObject({ level: 50, msg: 'an error', step: 'inner', reqId: entries[0].reqId });
  });

  it('is the stand-in itself when the app has no logger', async () => {
    const app = Fastify({ childLoggerFactory: deferredChildLogger });
    app.get('/x', async (request) => {
      request.log.warn('nowhere');
      return { ok: true };
    });
    expect((await app.inject({ method: 'GET', url: '/x' })).statusCode).toBe(200);
    await app.close();
  });
});
