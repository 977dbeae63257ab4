// How lines add into one total (docs/decisions/010), on a hand-made set of overlapping lines.
import { describe, expect, it } from 'vitest';
import { containersOf, linesOfOneTotal, type ScopedLine } from '../src/modules/budgets/budgets.totals.ts';

const line = (id: string, over: Partial<ScopedLine>): ScopedLine => ({
  id,
  organizationId: 'org-a',
  departmentId: null,
  categoryId: null,
  periodType: 'year',
  periodStart: '2026-01-01',
  periodEnd: '2026-12-31',
  countsPayroll: false,
  ...over,
});

const fyOrg = line('fy-org', {});
const fyOps = line('fy-ops', { departmentId: 'ops' });
const fyOtherOrg = line('fy-b', { organizationId: 'org-b' });
const q4 = line('q4', { periodType: 'quarter', periodStart: '2026-10-01' });
const q4Travel = line('q4-travel', { periodType: 'quarter', periodStart: '2026-10-01', categoryId: 'travel' });
const nov = line('nov', { periodType: 'month', periodStart: '2026-11-01', periodEnd: '2026-11-30' });

describe('budget totals', () => {
  it('marks a line inside another of its granularity, and never compares granularities', () => {
    const contained = containersOf([fyOrg, fyOps, fyOtherOrg, q4, q4Travel, nov]);
    expect(Object.fromEntries(contained)).toEqual({ 'fy-ops': 'fy-org', 'q4-travel': 'q4' });
  });

  it('adds the coarsest granularity in force, less the lines inside another', () => {
    const total = linesOfOneTotal([nov, q4Travel, fyOps, q4, fyOrg, fyOtherOrg]);
    expect(total.periodType).toBe('year');
    expect(total.lines.map((l) => l.id).sort()).toEqual(['fy-b', 'fy-org']);
  });

  it('falls back to quarter and month lines when no coarser line is in force', () => {
    expect(linesOfOneTotal([nov, q4Travel, q4])).toEqual({ periodType: 'quarter', lines: [q4] });
    expect(linesOfOneTotal([nov])).toEqual({ periodType: 'month', lines: [nov] });
    expect(linesOfOneTotal([])).toEqual({ periodType: null, lines: [] });
  });

  it('counts one of two identical lines', () => {
    const twin = line('fy-org-2', {});
    expect(linesOfOneTotal([fyOrg, twin]).lines).toHaveLength(1);
  });
});
