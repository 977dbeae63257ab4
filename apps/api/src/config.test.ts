import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

const TOKEN = '0123456789abcdef0123';

describe('metrics settings', () => {
  it('are off unless a token or a port is set; blank values count as unset', () => {
    expect(loadConfig({}).metrics).toEqual({ token: undefined, port: undefined, host: '127.0.0.1' });
    expect(loadConfig({ METRICS_TOKEN: '  ', METRICS_PORT: '', METRICS_HOST: ' ' }).metrics).toEqual({ token: undefined, port: undefined, host: '127.0.0.1' });
  });

  it('take a token, an internal port and its interface', () => {
    expect(loadConfig({ METRICS_TOKEN: ` ${TOKEN} ` }).metrics).toEqual({ token: TOKEN, port: undefined, host: '127.0.0.1' });
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '10.0.0.5' }).metrics).toEqual({ token: undefined, port: 9464, host: '10.0.0.5' });
  });

  it('refuse to start on a guessable token, a port that is not one, or the public port', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow('METRICS_TOKEN must be at least 16 characters long');
    for (const port of ['abc', '0', '70000', '94.5', '-1']) {
      expect(() => loadConfig({ METRICS_PORT: port }), port).toThrow(/METRICS_PORT must be/);
    }
    expect(() => loadConfig({ PORT: '8080', METRICS_PORT: '8080' })).toThrow('METRICS_PORT must differ from PORT (8080)');
  });
});
