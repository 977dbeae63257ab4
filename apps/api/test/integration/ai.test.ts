// POST /api/ai/parse-expense and POST /api/ai/copilot: permissions, scope, validation, and the
// Copilot on 40 questions, each compared with the figure the screen behind it shows in the same
// test (Advanced Reporting, Consolidated Financials, Budget vs Actual, Approvals, Approvals
// Management).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Decimal from 'decimal.js';
import { serverFormat as f } from '@outlay/contracts/format';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';

let t: TestContext;
const s: Record<string, Session> = {};

beforeAll(async () => {
  t = await createTestApp();
  for (const u of ['grace', 'carla', 'felix', 'max', 'dana', 'rita']) s[u] = await login(t.app, u);
});
afterAll(async () => t.close());

const post = (who: string, url: string, payload: object) =>
  t.app.inject({ method: 'POST', url, headers: s[who]!.headers, payload });
const get = async (who: string, url: string) => {
  const res = await t.app.inject({ method: 'GET', url, headers: s[who]!.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

interface Answer {
  answer: string;
  scope?: { level: string; label: string };
  table?: { columns: { label: string }[]; rows: { cells: string[]; href: string | null }[] };
  chart?: { points: { label: string; value: string }[] };
  links: { label: string; href: string }[];
}

async function ask(who: string, question: string, context?: string[]): Promise<Answer> {
  const res = await post(who, '/api/ai/copilot', context ? { question, context } : { question });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

// --- periods as the screens are asked for them (calendar, UTC) ---------------------------------------
const now = new Date();
const Y = now.getUTCFullYear();
const M = now.getUTCMonth() + 1;
const ym = (y: number, m: number) => {
  const d = new Date(Date.UTC(y, m - 1, 1));
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
};
const Q = Math.floor((M - 1) / 3) + 1;
const P = {
  thisYear: { from: `${Y}-01`, to: ym(Y, M) },
  lastYear: { from: `${Y - 1}-01`, to: `${Y - 1}-12` },
  thisQuarter: { from: ym(Y, (Q - 1) * 3 + 1), to: ym(Y, (Q - 1) * 3 + 3) },
  lastQuarter: { from: ym(Y, (Q - 2) * 3 + 1), to: ym(Y, (Q - 2) * 3 + 3) },
  thisMonth: { from: ym(Y, M), to: ym(Y, M) },
  lastMonth: { from: ym(Y, M - 1), to: ym(Y, M - 1) },
  last6: { from: ym(Y, M - 5), to: ym(Y, M) },
  march: { from: ym(M >= 3 ? Y : Y - 1, 3), to: ym(M >= 3 ? Y : Y - 1, 3) },
};
type Range = { from: string; to: string };

// --- the screens' figures ------------------------------------------------------------------------------
interface ReportRun {
  rows: { keys: Record<string, { id: string | null; label: string }>; sum: string; count: number; average: string }[];
  totals: { sum: string; count: number; average: string };
  currency: string;
}
let options: {
  organizations: { id: string; name: string }[];
  categories: { id: string; name: string }[];
  vendors: { id: string; name: string }[];
  departments: { id: string; name: string }[];
};
const idOf = (list: { id: string; name: string }[], name: string) =>
  list.filter((x) => x.name === name).map((x) => x.id);

async function report(
  who: string,
  range: Range,
  dimensions: string[],
  filters: Record<string, unknown> = {},
): Promise<ReportRun> {
  const res = await post(who, '/api/reports/run', {
    definition: { dimensions, measures: ['sum', 'count', 'average'], filters: { ...range, ...filters }, view: 'table' },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
const money = (v: string, c: string) => f.money(v, c);
const cellsOf = (a: Answer) => a.table?.rows.map((r) => r.cells) ?? [];

function expectRows(a: Answer, run: ReportRun, dim: string) {
  expect(a.table, a.answer).toBeDefined();
  for (const r of run.rows) {
    expect(cellsOf(a), `${r.keys[dim]?.label}`).toContainEqual([
      r.keys[dim]!.label,
      money(r.sum, run.currency),
      f.number(r.count),
      money(r.average, run.currency),
    ]);
  }
  expect(a.table!.rows).toHaveLength(run.rows.length);
}

function expectTop(a: Answer, run: ReportRun, dim: string, n: number) {
  const top = [...run.rows].sort((x, y) => new Decimal(y.sum).comparedTo(x.sum)).slice(0, n);
  expect(cellsOf(a).map((c) => c[0])).toEqual(top.map((r) => r.keys[dim]!.label));
  for (const r of top) expect(a.answer).toContain(money(r.sum, run.currency));
}

beforeAll(async () => {
  options = await get('grace', '/api/reports/options');
});

const QUESTIONS: [string, () => Promise<void>][] = [
  [
    'How much did we spend this year?',
    async () => {
      const run = await report('grace', P.thisYear, ['month']);
      const a = await ask('grace', 'How much did we spend this year?');
      expect(a.answer).toContain(money(run.totals.sum, run.currency));
      expect(a.answer).toContain(f.plural(run.totals.count, 'approved or paid request'));
      expectRows(a, run, 'month');
      // The chart splits each month as the dashboard does: approved (not yet paid) and paid.
      const split = await report('grace', P.thisYear, ['month', 'status']);
      const part = (m: string, st: string) =>
        split.rows.find((r) => r.keys.month!.id === m && r.keys.status!.id === st)?.sum ?? '0.00';
      for (const p of (
        a.chart as unknown as { points: { label: string; value: string; approved: string; paid: string }[] }
      ).points) {
        expect([p.approved, p.paid]).toEqual([part(p.label, 'approved'), part(p.label, 'paid')]);
      }
    },
  ],
  [
    'How much did Meridian Energy spend on travel last quarter?',
    async () => {
      const filters = {
        organizationIds: idOf(options.organizations, 'Meridian Energy'),
        categoryIds: idOf(options.categories, 'Travel'),
      };
      const run = await report('grace', P.lastQuarter, ['month'], filters);
      const a = await ask('grace', 'How much did Meridian Energy spend on travel last quarter?');
      expect(a.answer).toContain(money(run.totals.sum, run.currency));
      // The organization's own currency, as Consolidated Financials shows it.
      const c = await get(
        'grace',
        `/api/consolidation?from=${P.lastQuarter.from}&to=${P.lastQuarter.to}&granularity=quarter&organizationId=${filters.organizationIds[0]}`,
      );
      const travel = c.subsidiaries[0].categories.find((x: { categoryName: string }) => x.categoryName === 'Travel');
      if (travel && new Decimal(travel.total.original).gt(0))
        expect(a.answer).toContain(money(travel.total.original, 'EUR'));
      expect(a.links.map((l) => l.href)).toContain('/advanced-reporting');
    },
  ],
  [
    'Spend by organization this year',
    async () =>
      expectRows(
        await ask('grace', 'Spend by organization this year'),
        await report('grace', P.thisYear, ['organization']),
        'organization',
      ),
  ],
  [
    'Spend by category last year',
    async () =>
      expectRows(
        await ask('grace', 'Spend by category last year'),
        await report('grace', P.lastYear, ['category']),
        'category',
      ),
  ],
  [
    'Spend by department this quarter',
    async () =>
      expectRows(
        await ask('grace', 'Spend by department this quarter'),
        await report('grace', P.thisQuarter, ['department']),
        'department',
      ),
  ],
  [
    'Spend by vendor last month',
    async () =>
      expectRows(
        await ask('grace', 'Spend by vendor last month'),
        await report('grace', P.lastMonth, ['vendor']),
        'vendor',
      ),
  ],
  [
    'Spend by month this year',
    async () =>
      expectRows(await ask('grace', 'Spend by month this year'), await report('grace', P.thisYear, ['month']), 'month'),
  ],
  [
    'Top 5 vendors this year',
    async () =>
      expectTop(
        await ask('grace', 'Top 5 vendors this year'),
        await report('grace', P.thisYear, ['vendor']),
        'vendor',
        5,
      ),
  ],
  [
    'Top 3 categories last year',
    async () =>
      expectTop(
        await ask('grace', 'Top 3 categories last year'),
        await report('grace', P.lastYear, ['category']),
        'category',
        3,
      ),
  ],
  [
    'Top 3 organizations last quarter',
    async () =>
      expectTop(
        await ask('grace', 'Top 3 organizations last quarter'),
        await report('grace', P.lastQuarter, ['organization']),
        'organization',
        3,
      ),
  ],
  [
    'What did Meridian Logistics spend last year?',
    async () => {
      const run = await report('grace', P.lastYear, ['month'], {
        organizationIds: idOf(options.organizations, 'Meridian Logistics'),
      });
      expect((await ask('grace', 'What did Meridian Logistics spend last year?')).answer).toContain(
        money(run.totals.sum, run.currency),
      );
    },
  ],
  [
    'How much did Meridian Logistics spend on logistics this year?',
    async () => {
      const run = await report('grace', P.thisYear, ['month'], {
        organizationIds: idOf(options.organizations, 'Meridian Logistics'),
        categoryIds: idOf(options.categories, 'Logistics'),
      });
      const a = await ask('grace', 'How much did Meridian Logistics spend on logistics this year?');
      expect(a.answer).toContain(money(run.totals.sum, run.currency));
      expect(a.answer).toContain('Meridian Logistics · Logistics');
    },
  ],
  [
    'Average request by category this year',
    async () => {
      const run = await report('grace', P.thisYear, ['category']);
      const a = await ask('grace', 'Average request by category this year');
      expect(a.answer).toContain(money(run.totals.average, run.currency));
      expectRows(a, run, 'category');
    },
  ],
  [
    'How much did we spend on software last year?',
    async () => {
      const run = await report('grace', P.lastYear, ['month'], { categoryIds: idOf(options.categories, 'Software') });
      expect((await ask('grace', 'How much did we spend on software last year?')).answer).toContain(
        money(run.totals.sum, run.currency),
      );
    },
  ],
  [
    'Spend with Transcontinental Freight this year',
    async () => {
      const run = await report('grace', P.thisYear, ['month'], {
        vendorIds: idOf(options.vendors, 'Transcontinental Freight'),
      });
      expect((await ask('grace', 'Spend with Transcontinental Freight this year')).answer).toContain(
        money(run.totals.sum, run.currency),
      );
    },
  ],
  [
    'How much did we spend in March?',
    async () => {
      const run = await report('grace', P.march, ['month']);
      expect((await ask('grace', 'How much did we spend in March?')).answer).toContain(
        money(run.totals.sum, run.currency),
      );
    },
  ],
  [
    'Spend in the last 6 months',
    async () => {
      const run = await report('grace', P.last6, ['month']);
      const a = await ask('grace', 'Spend in the last 6 months');
      expect(a.answer).toContain(money(run.totals.sum, run.currency));
      expectRows(a, run, 'month');
    },
  ],
  [
    'Compare spend this quarter with last quarter',
    async () => {
      const [a1, b1] = [
        await report('grace', P.thisQuarter, ['organization']),
        await report('grace', P.lastQuarter, ['organization']),
      ];
      const a = await ask('grace', 'Compare spend this quarter with last quarter');
      expect(cellsOf(a)).toEqual([
        [expect.any(String), money(a1.totals.sum, a1.currency), f.number(a1.totals.count)],
        [expect.any(String), money(b1.totals.sum, b1.currency), f.number(b1.totals.count)],
      ]);
    },
  ],
  [
    'Compare spend last year vs this year',
    async () => {
      const [a1, b1] = [
        await report('grace', P.lastYear, ['organization']),
        await report('grace', P.thisYear, ['organization']),
      ];
      const a = await ask('grace', 'Compare spend last year vs this year');
      expect(a.answer).toContain(money(a1.totals.sum, a1.currency));
      expect(a.answer).toContain(money(b1.totals.sum, b1.currency));
      expect(a.answer).toContain(money(new Decimal(a1.totals.sum).minus(b1.totals.sum).toFixed(2), a1.currency));
    },
  ],
  [
    'Compare travel spend this month against last month',
    async () => {
      const cat = { categoryIds: idOf(options.categories, 'Travel') };
      const [a1, b1] = [
        await report('grace', P.thisMonth, ['organization'], cat),
        await report('grace', P.lastMonth, ['organization'], cat),
      ];
      const a = await ask('grace', 'Compare travel spend this month against last month');
      expect(a.answer).toContain(money(a1.totals.sum, a1.currency));
      expect(a.answer).toContain(money(b1.totals.sum, b1.currency));
    },
  ],
  [
    'follow-up: … and this quarter?',
    async () => {
      const run = await report('grace', P.thisQuarter, ['month'], {
        organizationIds: idOf(options.organizations, 'Meridian Energy'),
        categoryIds: idOf(options.categories, 'Travel'),
      });
      const a = await ask('grace', 'and this quarter?', ['How much did Meridian Energy spend on travel last quarter?']);
      expect(a.answer).toContain('Meridian Energy · Travel');
      expect(a.answer).toContain(money(run.totals.sum, run.currency));
    },
  ],
  [
    'follow-up: Top 5 vendors … and last year?',
    async () => {
      expectTop(
        await ask('grace', 'and last year?', ['Top 5 vendors this year']),
        await report('grace', P.lastYear, ['vendor']),
        'vendor',
        5,
      );
    },
  ],
  [
    'follow-up: Spend by category … what about Meridian Foods?',
    async () => {
      const run = await report('grace', P.thisYear, ['category'], {
        organizationIds: idOf(options.organizations, 'Meridian Foods'),
      });
      expectRows(await ask('grace', 'what about Meridian Foods?', ['Spend by category this year']), run, 'category');
    },
  ],
  [
    'How many requests by status this year?',
    async () => {
      const run = await report('grace', P.thisYear, ['status'], {
        monthOf: 'submitted',
        statuses: ['pending', 'info_requested', 'approved', 'rejected', 'cancelled', 'paid'],
      });
      const a = await ask('grace', 'How many requests by status this year?');
      expect(a.answer).toContain(f.plural(run.totals.count, 'request'));
      for (const r of run.rows)
        expect(cellsOf(a)).toContainEqual([
          r.keys.status!.label,
          f.number(r.count),
          money(r.sum, run.currency),
          money(r.average, run.currency),
        ]);
    },
  ],
  [
    'How many requests are pending this year?',
    async () => {
      const run = await report('grace', P.thisYear, ['status'], {
        monthOf: 'submitted',
        statuses: ['pending', 'info_requested'],
      });
      expect((await ask('grace', 'How many requests are pending this year?')).answer).toContain(
        f.plural(run.totals.count, 'request'),
      );
    },
  ],
  [
    'How many rejected requests last quarter?',
    async () => {
      const run = await report('grace', P.lastQuarter, ['status'], { monthOf: 'submitted', statuses: ['rejected'] });
      const a = await ask('grace', 'How many rejected requests last quarter?');
      expect(run.totals.count === 0 ? a.answer : a.answer).toContain(
        run.totals.count === 0 ? 'No requests' : f.plural(run.totals.count, 'request'),
      );
    },
  ],
  [
    'Average amount by status last year',
    async () => {
      const run = await report('grace', P.lastYear, ['status'], {
        monthOf: 'submitted',
        statuses: ['pending', 'info_requested', 'approved', 'rejected', 'cancelled', 'paid'],
      });
      const a = await ask('grace', 'Average amount by status last year');
      for (const r of run.rows)
        expect(a.answer).toContain(
          `${r.keys.status!.label}: ${f.number(r.count)} (average ${money(r.average, run.currency)})`,
        );
    },
  ],
  ...[90, 75, 100].map((x): [string, () => Promise<void>] => [
    x === 100 ? 'Which budgets are over budget?' : `Which budgets are above ${x}%?`,
    async () => {
      const v = await get('grace', `/api/budgets/vs-actual?periodType=month&date=${now.toISOString().slice(0, 10)}`);
      const over = v.lines.filter((l: { budget: string; committed: string; actual: string }) =>
        new Decimal(l.committed).plus(l.actual).mul(100).gt(new Decimal(l.budget).mul(x)),
      );
      const a = await ask('grace', x === 100 ? 'Which budgets are over budget?' : `Which budgets are above ${x}%?`);
      expect(a.table!.rows.map((r) => r.cells[0]).sort()).toEqual(over.map((l: { label: string }) => l.label).sort());
      for (const l of over) expect(cellsOf(a).map((c) => c[1])).toContain(money(l.budget, l.currency));
      expect(a.links).toContainEqual({ label: 'Open Budget vs Actual', href: '/budget-vs-actual' });
    },
  ]),
  ...['max', 'dana'].map((who): [string, () => Promise<void>] => [
    `${who}: What is waiting for my approval?`,
    async () => {
      const q = await get(who, '/api/approvals/queue?pageSize=10');
      const a = await ask(who, 'What is waiting for my approval?');
      expect(a.answer).toContain(q.total === 0 ? 'Nothing waits' : f.plural(q.total, 'request'));
      expect(a.table!.rows.map((r) => r.href)).toEqual(
        q.items.map((i: { requestId: string }) => `/requests?id=${i.requestId}`),
      );
    },
  ]),
  ...(
    [
      ['this year', P.thisYear],
      ['last year', P.lastYear],
    ] as const
  ).map(([label, range]): [string, () => Promise<void>] => [
    `Compare payroll cost by subsidiary ${label}`,
    async () => {
      const c = await get('grace', `/api/consolidation?from=${range.from}&to=${range.to}&granularity=year`);
      const a = await ask('grace', `Compare payroll cost by subsidiary ${label}`);
      for (const sub of c.subsidiaries)
        expect(cellsOf(a)).toContainEqual([
          sub.organizationName,
          money(sub.total.payroll.original, sub.currency),
          money(sub.total.payroll.translated, c.groupCurrency),
        ]);
    },
  ]),
  [
    'felix: Payroll cost this year (his organization only)',
    async () => {
      const c = await get('felix', `/api/consolidation?from=${P.thisYear.from}&to=${P.thisYear.to}&granularity=year`);
      const a = await ask('felix', 'Payroll cost this year');
      expect(cellsOf(a).map((x) => x[0])).toEqual(
        c.subsidiaries.map((x: { organizationName: string }) => x.organizationName),
      );
      expect(cellsOf(a).map((x) => x[0])).toEqual(['Meridian Logistics']);
    },
  ],
  ...(
    [
      ['this year', P.thisYear],
      ['last quarter', P.lastQuarter],
    ] as const
  ).map(([label, range]): [string, () => Promise<void>] => [
    `carla: approval cycle times ${label}`,
    async () => {
      const lastDay = (m: string) =>
        new Date(Date.UTC(Number(m.slice(0, 4)), Number(m.slice(5)), 0)).toISOString().slice(0, 10);
      const today = now.toISOString().slice(0, 10);
      const to = lastDay(range.to) < today ? lastDay(range.to) : today;
      const c = await get('carla', `/api/approvals/cycle-times?from=${range.from}-01&to=${to}`);
      const a = await ask('carla', `What are the approval cycle times ${label}?`);
      for (const st of c.steps)
        expect(cellsOf(a)).toContainEqual([
          st.stepName,
          f.number(st.decisions),
          `${f.number(st.averageHours, 1, 1)} h`,
          `${f.number(st.medianHours, 1, 1)} h`,
          `${f.number(st.p90Hours, 1, 1)} h`,
        ]);
    },
  ]),
  [
    'felix: Spend by organization this year (his scope)',
    async () => {
      const run = await report('felix', P.thisYear, ['organization']);
      const a = await ask('felix', 'Spend by organization this year');
      expectRows(a, run, 'organization');
      expect(cellsOf(a).map((c) => c[0])).toEqual(['Meridian Logistics']);
    },
  ],
  [
    'max: Spend by category this year (his department)',
    async () => {
      expectRows(
        await ask('max', 'Spend by category this year'),
        await report('max', P.thisYear, ['category']),
        'category',
      );
    },
  ],
  [
    'rita: How much did the company spend this year? (refused)',
    async () => {
      const a = await ask('rita', 'How much did the company spend this year?');
      expect(a.answer).toMatch(/You may not see spend figures/);
      expect(a.table).toBeUndefined();
      expect(a.answer).not.toMatch(/\$\d/);
    },
  ],
];

describe('the Copilot on 40 questions, against the screens', () => {
  it('has 40 questions', () => expect(QUESTIONS).toHaveLength(40));
  it.each(QUESTIONS)('%s', async (_q, check) => check());
});

describe('POST /api/ai/copilot', () => {
  it('names the scope a total was computed over: a manager\'s "Meridian Logistics" is his department, not the organization', async () => {
    // max manages Operations in Meridian Logistics: his reports reach that department only.
    const mine = await report('max', P.thisYear, ['month']);
    const asked = await ask('max', 'How much did Meridian Logistics spend this year?');
    expect(asked.scope).toEqual({ level: 'department', label: 'Operations department of Meridian Logistics' });
    expect(asked.answer).toMatch(/^Operations department of Meridian Logistics spent /);
    expect(asked.answer).toContain(money(mine.totals.sum, mine.currency));
    // The organization's own total (felix, its finance manager) is a different, larger figure.
    const org = await report('felix', P.thisYear, ['month']);
    expect(new Decimal(org.totals.sum).gt(mine.totals.sum)).toBe(true);
    const felix = await ask('felix', 'How much did we spend this year?');
    expect(felix.scope).toEqual({ level: 'organization', label: 'Meridian Logistics' });
    expect(felix.answer).toMatch(/^Meridian Logistics spent /);
    expect(felix.answer).toContain(money(org.totals.sum, org.currency));
    // Without a name, a department's figures are still labelled as the department's.
    const plain = await ask('max', 'How much did we spend this year?');
    expect(plain.scope).toEqual({ level: 'department', label: 'Operations department of Meridian Logistics' });
    const status = await ask('max', 'How many requests by status this year?');
    expect(status.scope?.level).toBe('department');
    // The group: all organizations, or the ones named.
    const grace = await ask('grace', 'How much did we spend this year?');
    expect(grace.scope).toEqual({ level: 'group', label: 'All organizations of the group' });
    const named = await ask('grace', 'How much did Meridian Logistics spend this year?');
    expect(named.scope).toEqual({ level: 'organization', label: 'Meridian Logistics' });
    expect(named.answer).toContain(money(org.totals.sum, org.currency));
  });
  it('answers a question it does not understand with 200 and what it can answer', async () => {
    const a = await ask('rita', 'What is the weather in Berlin?');
    expect(a.answer).toMatch(/could not tell/);
    expect(a.answer).toMatch(/yours sees none of them/);
    expect(a.answer).not.toMatch(/spend by organization/i);
    const g = await ask('grace', 'Tell me a joke');
    expect(g.answer).toMatch(/spend by organization, category, department, vendor or month/i);
  });
  it('refuses cycle times to someone without the approvals management permission, without figures', async () => {
    const a = await ask('grace', 'What are the approval cycle times this year?');
    expect(a.answer).toMatch(/You may not see approval cycle times/);
    expect(a.table).toBeUndefined();
  });
  it("answers a department-scoped manager's payroll question as Consolidated Financials does", async () => {
    const c = await t.app.inject({
      method: 'GET',
      url: `/api/consolidation?from=${P.thisYear.from}&to=${P.thisYear.to}&granularity=year`,
      headers: s.max!.headers,
    });
    const a = await ask('max', 'Payroll cost by subsidiary this year');
    expect(c.statusCode).toBe(200);
    // A department's scope does not reach its organization's payroll: none is shown on either.
    expect(c.json().subsidiaries.filter((x: { payrollIncluded: boolean }) => x.payrollIncluded)).toEqual([]);
    expect(a.answer).toMatch(/^No payroll cost you may see/);
    expect(cellsOf(a)).toEqual([]);
  });
  it('keeps "top N" between 1 and 50 and reads budgets of one organization when it is named', async () => {
    expect((await ask('grace', 'Top 0 vendors this year')).table!.rows.length).toBe(1);
    const all = await get('grace', `/api/budgets/vs-actual?periodType=month&date=${now.toISOString().slice(0, 10)}`);
    const energy = all.lines.filter(
      (l: { organizationName: string; budget: string; committed: string; actual: string }) =>
        l.organizationName === 'Meridian Energy' &&
        new Decimal(l.committed).plus(l.actual).mul(100).gt(new Decimal(l.budget).mul(50)),
    );
    const a = await ask('grace', 'Which Meridian Energy budgets are above 50%?');
    expect(a.table!.rows.map((r) => r.cells[0]).sort()).toEqual(energy.map((l: { label: string }) => l.label).sort());
  });
  it('refuses budgets to a requester', async () => {
    expect((await ask('rita', 'Which budgets are above 90%?')).answer).toMatch(/You may not see budgets/);
  });
  it('validates the question', async () => {
    expect((await post('grace', '/api/ai/copilot', { question: '' })).statusCode).toBe(400);
    expect((await post('grace', '/api/ai/copilot', { question: 'x'.repeat(501) })).statusCode).toBe(400);
    expect((await post('grace', '/api/ai/copilot', {})).statusCode).toBe(400);
    expect(
      (await post('grace', '/api/ai/copilot', { question: 'spend', context: Array(11).fill('spend') })).statusCode,
    ).toBe(400);
  });
  it('needs a signed-in caller', async () => {
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/ai/copilot', payload: { question: 'spend' } })).statusCode,
    ).toBe(401);
  });
});

describe('POST /api/ai/parse-expense', () => {
  it("reads a sentence against the caller's categories and vendors", async () => {
    const res = await post('rita', '/api/ai/parse-expense', {
      text: 'freight from Transcontinental Freight 4,200 yesterday',
      today: '2026-03-18',
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      amount: '4200.00',
      currency: 'USD',
      date: '2026-03-17',
      category: { name: 'Logistics' },
      vendor: { name: 'Transcontinental Freight' },
      description: 'Freight from Transcontinental Freight',
    });
    const form = await get('rita', '/api/requests/options');
    expect(form.categories.map((c: { id: string }) => c.id)).toContain(body.category.id);
  });
  it("matches no vendor of another organization and uses the caller's currency", async () => {
    const paul = await login(t.app, 'paul');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/ai/parse-expense',
      headers: paul.headers,
      payload: { text: 'Transcontinental Freight 300', today: '2026-03-18' },
    });
    expect(res.json()).toMatchObject({ vendor: null, currency: 'EUR', amount: '300.00', date: '2026-03-18' });
  });
  it("uses the server's date in UTC when today is not given", async () => {
    const res = await post('rita', '/api/ai/parse-expense', { text: 'coffee 4.50' });
    expect(res.json().date).toBe(t.clock.now().toISOString().slice(0, 10));
  });
  it('validates text and today', async () => {
    expect((await post('rita', '/api/ai/parse-expense', { text: '' })).statusCode).toBe(400);
    expect((await post('rita', '/api/ai/parse-expense', { text: 'x'.repeat(501) })).statusCode).toBe(400);
    expect((await post('rita', '/api/ai/parse-expense', { text: 'coffee 4', today: '18/03/2026' })).statusCode).toBe(
      400,
    );
  });
  it('needs a signed-in caller', async () => {
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/ai/parse-expense', payload: { text: 'coffee 4' } })).statusCode,
    ).toBe(401);
  });
});
