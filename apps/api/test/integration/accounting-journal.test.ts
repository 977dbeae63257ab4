import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { addMoney } from '@outlay/contracts/money';
import type { Consolidation } from '@outlay/contracts';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';
import { setUpConsolidation, type ConsolidationWorld } from './consolidation-fixtures.ts';

let t: TestContext;
let w: ConsolidationWorld;
let carla: Session;
let felix: Session;
let dir: string;

beforeAll(async () => {
  t = await createTestApp();
  w = await setUpConsolidation(t);
  [carla, felix] = await Promise.all([login(t.app, 'carla'), login(t.app, 'felix')]);
  dir = mkdtempSync(join(tmpdir(), 'outlay-journal-'));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await t.close();
});

const get = (s: Session, url: string) => t.app.inject({ method: 'GET', url, headers: s.headers });

async function ledgerFile(s: Session, query: string): Promise<string> {
  const res = await get(s, `/api/accounting/journal?format=ledger&${query}`);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toContain('text/plain');
  const file = join(dir, `${Math.random().toString(36).slice(2)}.journal`);
  writeFileSync(file, res.body);
  return file;
}

function hledger(...args: string[]): string {
  try {
    return execFileSync('hledger', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    // hledger says what is wrong (and where) on stderr.
    throw new Error(`hledger ${args.slice(2).join(' ')}: ${(error as { stderr?: string }).stderr ?? String(error)}`);
  }
}

/** `hledger balance` as account → amount text ("1333.33 CHF"). */
function balances(file: string, ...query: string[]): Map<string, string> {
  const rows = parse(hledger('-f', file, 'balance', '--flat', '--no-total', '-O', 'csv', ...query), {
    columns: true,
  }) as { account: string; balance: string }[];
  return new Map(rows.map((r) => [r.account, r.balance]));
}

describe('the journal read by hledger', () => {
  it('passes hledger check (balanced, declared accounts and commodities) for a company and for the group', async () => {
    const file = await ledgerFile(carla, `from=2019-01-01&to=2019-02-28&organizationId=${w.org.CH}`);
    expect(() => hledger('-f', file, 'check')).not.toThrow();
    expect(() => hledger('-f', file, 'check', 'accounts', 'commodities')).not.toThrow();
    const group = await ledgerFile(carla, 'from=2019-01-01&to=2019-03-31');
    expect(() => hledger('-f', group, 'check', 'accounts', 'commodities')).not.toThrow();
  });

  it('balances per expense account equal the consolidated figures (company currency, original amounts) for the same period', async () => {
    for (const org of [w.org.CH, w.org.JP, w.org.US]) {
      const file = await ledgerFile(carla, `from=2019-01-01&to=2019-02-28&organizationId=${org}`);
      const res = await get(carla, `/api/consolidation?from=2019-01&to=2019-02&organizationId=${org}`);
      const c: Consolidation = res.json();
      const company = c.subsidiaries[0]!;
      const expected = new Map<string, string>();
      for (const k of company.categories) expected.set(`Expenses:${k.glAccount} ${k.categoryName}`, k.total.original);
      if (company.total.payroll.original !== '0.00') expected.set('Expenses:Payroll', company.total.payroll.original);
      const got = balances(file, '^Expenses');
      expect([...got.keys()].sort()).toEqual([...expected.keys()].sort());
      for (const [account, amount] of expected) {
        const [value, commodity] = got.get(account)!.split(' ');
        expect(commodity, account).toBe(company.currency);
        expect(addMoney(value!).eq(addMoney(amount)), `${account}: ${value} vs ${amount}`).toBe(true);
      }
    }
  });

  it('posts payments and payroll against the bank and liabilities, in the currency’s minor unit', async () => {
    const ch = balances(await ledgerFile(carla, `from=2019-01-01&to=2019-02-28&organizationId=${w.org.CH}`));
    // Paid: 1,000.00 + 1.00 requests and January's net salaries 7,050.00.
    expect(ch.get('Assets:Bank')).toBe('-8051.00 CHF');
    // Approved, not paid: 333.33 + 1.00 + 500.00.
    expect(ch.get('Liabilities:Accounts Payable')).toBe('-834.33 CHF');
    expect(ch.get('Liabilities:Income Tax Withheld')).toBe('-3000.00 CHF');
    expect(ch.get('Liabilities:Pension Contributions')).toBe('-2900.00 CHF');
    // February's run is approved, not paid: its net is still owed.
    expect(ch.get('Liabilities:Salaries Payable')).toBe('-7050.00 CHF');
    const jpText = (
      await get(carla, `/api/accounting/journal?format=ledger&from=2019-01-01&to=2019-02-28&organizationId=${w.org.JP}`)
    ).body;
    expect(jpText).toMatch(/Expenses:6100 Travel\s+123457 JPY/);
    expect(jpText).not.toMatch(/\d\.\d+ JPY/);
    expect(jpText).toContain('commodity 1000. JPY');
    const jp = balances(await ledgerFile(carla, `from=2019-01-01&to=2019-02-28&organizationId=${w.org.JP}`));
    expect(jp.get('Assets:Bank')).toBe('-873457 JPY');
  });
});

describe('CSV, scope and permission', () => {
  it('CSV has one row per posting, debits equal to credits', async () => {
    const res = await get(
      carla,
      `/api/accounting/journal?format=csv&from=2019-01-01&to=2019-01-31&organizationId=${w.org.CH}`,
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('journal-2019-01-01-2019-01-31');
    const rows = parse(res.body.replace(/^\uFEFF/, ''), { columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0]!)).toEqual([
      'Date',
      'Reference',
      'Description',
      'Organization',
      'Account',
      'Debit',
      'Credit',
      'Currency',
    ]);
    const debit = addMoney(...rows.map((r) => r.Debit || '0'));
    const credit = addMoney(...rows.map((r) => r.Credit || '0'));
    expect(debit.eq(credit)).toBe(true);
    expect(rows).toContainEqual(
      expect.objectContaining({
        Date: '2019-01-10',
        Account: 'Expenses:6100 Travel',
        Debit: '1000.00',
        Currency: 'CHF',
        Organization: 'T-CH',
      }),
    );
    expect(rows).toContainEqual(
      expect.objectContaining({ Date: '2019-01-31', Account: 'Expenses:Payroll', Debit: '10000.00' }),
    );
  });

  it('felix downloads his company’s books only; rita and a department head are refused', async () => {
    const res = await get(
      felix,
      'from=2019-01-01&to=2019-02-28'.replace(/^/, '/api/accounting/journal?format=ledger&'),
    );
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Depot audit trip');
    expect(res.body).not.toContain('Zurich client visit');
    expect(
      (await get(felix, `/api/accounting/journal?from=2019-01-01&to=2019-02-28&organizationId=${w.org.CH}`)).statusCode,
    ).toBe(404);
    const rita = await login(t.app, 'rita');
    expect((await get(rita, '/api/accounting/journal?from=2019-01-01&to=2019-02-28')).statusCode).toBe(403);
    const dana = await login(t.app, 'dana');
    const refused = await get(dana, '/api/accounting/journal?from=2019-01-01&to=2019-02-28');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toMatch(/whole organizations/);
  });

  it('refuses a reversed range and an unknown format clearly', async () => {
    const reversed = await get(carla, '/api/accounting/journal?from=2019-03-01&to=2019-01-01');
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().message).toMatch(/start date/);
    expect((await get(carla, '/api/accounting/journal?from=2019-01-01&to=2019-01-31&format=qif')).statusCode).toBe(400);
  });
});
