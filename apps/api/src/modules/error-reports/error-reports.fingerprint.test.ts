import { describe, expect, it } from 'vitest';
import { browserOf, fingerprintOf, normalizeFrame, normalizeMessage, topFrames } from './error-reports.fingerprint.ts';

const chromeStack = (line: number, hash: string) => `TypeError: Cannot read properties of undefined (reading 'total')
    at BudgetCard (https://outlay.example.com/assets/dashboard-page-${hash}.js:${line}:1874)
    at renderWithHooks (https://outlay.example.com/assets/index-${hash}.js:9:41210)
    at updateFunctionComponent (https://outlay.example.com/assets/index-${hash}.js:9:64567)`;

describe('error fingerprints', () => {
  it('are the same when only line numbers, columns and build hashes differ', () => {
    const a = fingerprintOf(
      'client',
      "Cannot read properties of undefined (reading 'total')",
      chromeStack(12, 'Bx3k9_aZ'),
    );
    const b = fingerprintOf(
      'client',
      "Cannot read properties of undefined (reading 'total')",
      chromeStack(48, 'Q7p-2LmW'),
    );
    expect(a).toBe(b);
  });

  it('differ when the failing function differs', () => {
    const a = fingerprintOf('client', 'Boom', chromeStack(12, 'Bx3k9_aZ'));
    const b = fingerprintOf('client', 'Boom', chromeStack(12, 'Bx3k9_aZ').replace('BudgetCard', 'SpendCard'));
    expect(a).not.toBe(b);
  });

  it('differ between the web app and the server, and between server routes', () => {
    expect(fingerprintOf('client', 'Boom', null)).not.toBe(fingerprintOf('server', 'Boom', null));
    expect(fingerprintOf('server', 'Boom', null, 'GET /api/a')).not.toBe(
      fingerprintOf('server', 'Boom', null, 'GET /api/b'),
    );
  });

  it('read Firefox and Safari frames as well as V8 ones, skipping the message lines', () => {
    const firefox =
      'BudgetCard@https://outlay.example.com/assets/dashboard-page-Bx3k9_aZ.js:12:1874\nrenderWithHooks@https://outlay.example.com/assets/index-Bx3k9_aZ.js?v=3:9:41210';
    expect(topFrames(firefox)).toEqual(['BudgetCard@/assets/dashboard-page.js', 'renderWithHooks@/assets/index.js']);
    expect(topFrames(chromeStack(1, 'Bx3k9_aZ'))[0]).toBe('at BudgetCard (/assets/dashboard-page.js)');
    expect(normalizeFrame('    at file:///srv/outlay/dist/server.js:120:7')).toBe('at /srv/outlay/dist/server.js');
  });

  it('normalize ids and numbers in the message', () => {
    expect(normalizeMessage('Request 1432 not found (id 0b0d3e5c-2f0e-4b43-9d0a-8f1c2d3e4f50)')).toBe(
      'Request <n> not found (id <id>)',
    );
  });
});

describe('browserOf', () => {
  it('names the browser, its major version and the system', () => {
    expect(
      browserOf(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.86 Safari/537.36',
      ),
    ).toBe('Chrome 131 on Windows');
    expect(
      browserOf(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      ),
    ).toBe('Safari 17 on iOS');
  });

  it('is null without a user agent or for one it cannot read', () => {
    expect(browserOf(null)).toBeNull();
    expect(browserOf('')).toBeNull();
  });
});
