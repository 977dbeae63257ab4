import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

const TOKEN = '0123456789abcdef0123';

describe('metrics settings', () => {
  it('are off unless a token or a port is set; blank values count as unset', () => {
    expect(loadConfig({}).metrics).toEqual({ token: undefined, port: undefined, host: '127.0.0.1' });
    expect(loadConfig({ METRICS_TOKEN: '  ', METRICS_PORT: '', METRICS_HOST: ' ' }).metrics).toEqual({
      token: undefined,
      port: undefined,
      host: '127.0.0.1',
    });
  });

  it('take a token, an internal port and its interface', () => {
    expect(loadConfig({ METRICS_TOKEN: ` ${TOKEN} ` }).metrics).toEqual({
      token: TOKEN,
      port: undefined,
      host: '127.0.0.1',
    });
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '10.0.0.5' }).metrics).toEqual({
      token: undefined,
      port: 9464,
      host: '10.0.0.5',
    });
  });

  it('refuse to start on a guessable token, a port that is not one, or the public port', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow('METRICS_TOKEN must be at least 16 characters long');
    for (const port of ['abc', '0', '70000', '94.5', '-1']) {
      expect(() => loadConfig({ METRICS_PORT: port }), port).toThrow(/METRICS_PORT must be/);
    }
    expect(() => loadConfig({ PORT: '8080', METRICS_PORT: '8080' })).toThrow(
      'METRICS_PORT must differ from PORT (8080)',
    );
  });
});

describe('TRUST_PROXY', () => {
  it('believes nobody by default, any proxy with true, or only the listed proxies', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: ' ' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: ' 10.0.0.5, 10.0.1.0/24 ,::1,fd00::/8, loopback' }).trustProxy).toBe(
      '10.0.0.5,10.0.1.0/24,::1,fd00::/8,loopback',
    );
  });

  it('refuses to start on anything else, naming what it could not read', () => {
    for (const value of ['yes', '1', '10.0.0.300', '10.0.0.0/33', 'balancer.internal', '10.0.0.5,,10.0.0.6']) {
      expect(() => loadConfig({ TRUST_PROXY: value }), value).toThrow(
        /^TRUST_PROXY must be true, false or a comma-separated list of proxy addresses/,
      );
    }
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.5, lb.internal' })).toThrow('not "lb.internal"');
  });
});

describe('BACKUP_DIR', () => {
  it('defaults to backups under the data directory and resolves a relative path', () => {
    expect(loadConfig({ DATA_DIR: '/srv/outlay' }).backupDir).toBe('/srv/outlay/backups');
    expect(loadConfig({ DATA_DIR: '/srv/outlay', BACKUP_DIR: '/mnt/backups ' }).backupDir).toBe('/mnt/backups');
    expect(loadConfig({ BACKUP_DIR: 'kept' }).backupDir).toBe(`${process.cwd()}/kept`);
  });

  it('refuses to start on a blank path or one with a NUL byte', () => {
    expect(() => loadConfig({ BACKUP_DIR: '   ' })).toThrow(/BACKUP_DIR must be a folder path/);
    expect(() => loadConfig({ BACKUP_DIR: '/tmp/a\0b' })).toThrow(/BACKUP_DIR must be a folder path/);
  });
});

describe('the wording model (LLM_BASE_URL, LLM_MODEL, LLM_API_KEY)', () => {
  it('is off unless LLM_BASE_URL is set', () => {
    expect(loadConfig({}).llm).toBeUndefined();
    expect(loadConfig({ LLM_BASE_URL: ' ', LLM_MODEL: 'x' }).llm).toBeUndefined();
  });
  it('takes the endpoint without its trailing slash, the model and an optional key', () => {
    expect(loadConfig({ LLM_BASE_URL: 'http://127.0.0.1:11434/v1/', LLM_MODEL: 'llama3.2' }).llm).toEqual({
      baseUrl: 'http://127.0.0.1:11434/v1',
      apiKey: undefined,
      model: 'llama3.2',
    });
    expect(
      loadConfig({ LLM_BASE_URL: 'https://llm.example.com/v1', LLM_MODEL: 'm', LLM_API_KEY: 'k' }).llm?.apiKey,
    ).toBe('k');
  });
  it('refuses to start on a URL it cannot use or without a model', () => {
    expect(() => loadConfig({ LLM_BASE_URL: 'localhost:11434', LLM_MODEL: 'm' })).toThrow(
      /LLM_BASE_URL must be an http\(s\) URL/,
    );
    expect(() => loadConfig({ LLM_BASE_URL: 'ftp://x/v1', LLM_MODEL: 'm' })).toThrow(/LLM_BASE_URL/);
    expect(() => loadConfig({ LLM_BASE_URL: 'http://127.0.0.1:11434/v1' })).toThrow(/LLM_MODEL must name the model/);
  });
});

describe('the webhook secret grace period (WEBHOOK_SECRET_GRACE_HOURS)', () => {
  it('is 24 hours unless set, may be 0, and refuses anything but a whole number', () => {
    expect(loadConfig({}).webhookSecretGraceHours).toBe(24);
    expect(loadConfig({ WEBHOOK_SECRET_GRACE_HOURS: ' 72 ' }).webhookSecretGraceHours).toBe(72);
    expect(loadConfig({ WEBHOOK_SECRET_GRACE_HOURS: '0' }).webhookSecretGraceHours).toBe(0);
    expect(() => loadConfig({ WEBHOOK_SECRET_GRACE_HOURS: '1.5' })).toThrow(
      /WEBHOOK_SECRET_GRACE_HOURS must be a whole number/,
    );
    expect(() => loadConfig({ WEBHOOK_SECRET_GRACE_HOURS: '-1' })).toThrow(/WEBHOOK_SECRET_GRACE_HOURS/);
  });
});

describe('the public address (PUBLIC_URL)', () => {
  it('is http://localhost:PORT unless set, and says so', () => {
    expect(loadConfig({})).toMatchObject({ publicUrl: 'http://localhost:3000', publicUrlSet: false });
    expect(loadConfig({ PORT: '8080', PUBLIC_URL: '  ' })).toMatchObject({
      publicUrl: 'http://localhost:8080',
      publicUrlSet: false,
    });
  });
  it('takes an http(s) URL without its trailing slash', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://outlay.example.com/' })).toMatchObject({
      publicUrl: 'https://outlay.example.com',
      publicUrlSet: true,
    });
    expect(loadConfig({ PUBLIC_URL: ' http://10.0.0.5:3000/outlay// ' }).publicUrl).toBe('http://10.0.0.5:3000/outlay');
  });
  it('refuses to start on anything else', () => {
    for (const bad of [
      'outlay.example.com',
      'ftp://outlay.example.com',
      'https://outlay.example.com/?a=1',
      'https://outlay.example.com/#x',
      'https://u:p@outlay.example.com',
      'javascript:alert(1)',
    ]) {
      expect(() => loadConfig({ PUBLIC_URL: bad }), bad).toThrow(/PUBLIC_URL must be an http\(s\) URL/);
    }
  });
});
