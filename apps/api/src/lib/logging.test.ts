import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { loggerOptions, redactUrl } from './logging.ts';

describe('redactUrl', () => {
  it('hides the values of secret-looking query parameters and keeps the rest', () => {
    expect(redactUrl('/api/requests?page=2&token=abc.def&status=pending')).toBe('/api/requests?page=2&token=[redacted]&status=pending');
    expect(redactUrl('/x?access_token=a&refreshToken=b&api_key=c&code=d&sig=e&currency=USD')).toBe(
      '/x?access_token=[redacted]&refreshToken=[redacted]&api_key=[redacted]&code=[redacted]&sig=[redacted]&currency=USD',
    );
    expect(redactUrl('/x?%74oken=abc')).toBe('/x?%74oken=[redacted]');
    expect(redactUrl('/api/health')).toBe('/api/health');
    expect(redactUrl('/x?flag&currencyCode=EUR')).toBe('/x?flag&currencyCode=EUR');
  });

  it('hides a calendar feed link, whose token is its path, and keeps the calendar screen\'s own calls', () => {
    expect(redactUrl('/api/calendar/VFUW1ryVF8mGoQ_C_un7dBl3be7UmzS2fw1cps-CM80.ics')).toBe('/api/calendar/[redacted]');
    expect(redactUrl('/api/calendar/abc.ics?x=1')).toBe('/api/calendar/[redacted]?x=1');
    expect(redactUrl('/api/calendar/feed')).toBe('/api/calendar/feed');
    expect(redactUrl('/api/calendar/upcoming')).toBe('/api/calendar/upcoming');
    expect(redactUrl('/api/calendar/import/preview')).toBe('/api/calendar/import/preview');
  });
});

describe('the request log', () => {
  it('never writes a token sent in the query string', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const app = Fastify({ logger: { ...loggerOptions('info'), stream } });
    app.get('/api/thing', async () => ({ ok: true }));
    const res = await app.inject({ method: 'GET', url: '/api/thing?access_token=s3cr3t-value&page=1', headers: { authorization: 'Bearer also-secret' } });
    expect(res.statusCode).toBe(200);
    await app.close();
    const log = lines.join('');
    expect(log).toContain('/api/thing?access_token=[redacted]&page=1');
    expect(log).not.toContain('s3cr3t-value');
    expect(log).not.toContain('also-secret');
  });
});
