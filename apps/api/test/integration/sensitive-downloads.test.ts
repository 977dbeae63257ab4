import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { DEMO_PASSWORD, organizations, payrollLines, payrollRuns } from '@outlay/db';
import { createTestApp, login, nextIp, type Session, type TestContext } from '../helpers.ts';

/*
 * What hands over a whole class of secrets in one file (every payee's IBAN, the whole database,
 * one person's pay, every account's password state) needs a password confirmed in the last ten
 * minutes; an API key, which can never confirm one, is refused all four.
 */

let t: TestContext;
let adam: Session;
const urls: Record<'bankFile' | 'payslip' | 'backup' | 'passwordExport', string> = {
  bankFile: '',
  payslip: '',
  backup: '',
  passwordExport: '/api/users/passwords/export?format=csv',
};

const call = (s: Session, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: s.headers, ...(payload === undefined ? {} : { payload }) });

beforeAll(async () => {
  t = await createTestApp();
  adam = await login(t.app, 'adam');
  const [ml] = await t.db.select().from(organizations).where(eq(organizations.code, 'ML'));
  const [run] = await t.db
    .select()
    .from(payrollRuns)
    .where(and(eq(payrollRuns.organizationId, ml!.id), eq(payrollRuns.status, 'paid')))
    .orderBy(desc(payrollRuns.period))
    .limit(1);
  const [line] = await t.db.select().from(payrollLines).where(eq(payrollLines.runId, run!.id)).limit(1);
  urls.bankFile = `/api/payroll/runs/${run!.id}/bank-file?format=pain001`;
  urls.payslip = `/api/payroll/runs/${run!.id}/payslips/${line!.employeeId}`;
  const started = await call(adam, 'POST', '/api/backups');
  expect(started.statusCode, started.body).toBe(202);
  const id = started.json().id as string;
  await vi.waitFor(async () => expect((await call(adam, 'GET', `/api/backups/${id}`)).json().status).toBe('ready'), {
    timeout: 60_000,
    interval: 100,
  });
  urls.backup = `/api/backups/${id}/download`;
});
afterAll(async () => t.close());

const DOWNLOADS = ['bankFile', 'payslip', 'backup', 'passwordExport'] as const;

describe('sensitive downloads', () => {
  it.each(DOWNLOADS)('%s downloads right after sign-in', async (which) => {
    const res = await call(adam, 'GET', urls[which]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment/);
  });

  it.each(DOWNLOADS)(
    '%s is refused with 403 reauth_required once the password is over 10 minutes old, and downloads after a confirmation',
    async (which) => {
      const s = await login(t.app, 'adam');
      t.clock.advance(11 * 60_000);
      const stale = await call(s, 'GET', urls[which]);
      expect(stale.statusCode, stale.body).toBe(403);
      expect(stale.json()).toMatchObject({ code: 'reauth_required' });
      expect(stale.headers['content-disposition']).toBeUndefined();
      expect((await call(s, 'POST', '/api/auth/reauth', { password: DEMO_PASSWORD })).statusCode).toBe(200);
      expect((await call(s, 'GET', urls[which])).statusCode).toBe(200);
    },
  );

  it.each(DOWNLOADS)('%s is refused to an API key that holds the permission', async (which) => {
    const s = await login(t.app, 'adam');
    const made = await call(s, 'POST', '/api/api-keys', {
      name: `Downloads ${which}`,
      permissions: ['payroll.manage', 'backups.manage', 'users.manage'],
    });
    expect(made.statusCode, made.body).toBe(201);
    const res = await t.app.inject({
      method: 'GET',
      url: urls[which],
      headers: { authorization: `Bearer ${made.json().key}` },
      remoteAddress: nextIp(),
    });
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json()).toMatchObject({ code: 'reauth_required' });
    expect(res.headers['content-disposition']).toBeUndefined();
  });
});
