import { describe, expect, it } from 'vitest';
import { budgetPeriodLabel } from './budgets.ts';

describe('budgetPeriodLabel', () => {
  it('names a month by its short English name and year, in UTC whatever the server zone', () => {
    expect(budgetPeriodLabel('month', '2026-11-01')).toBe('Nov 2026');
    expect(budgetPeriodLabel('month', '2027-01-01')).toBe('Jan 2027');
    // The same formatter serves every call: labels do not leak from one call into the next.
    expect(['2026-01-01', '2026-06-01', '2026-12-01'].map((start) => budgetPeriodLabel('month', start))).toEqual([
      'Jan 2026',
      'Jun 2026',
      'Dec 2026',
    ]);
  });

  it('names calendar quarters and fiscal years, and says how a quarter off the calendar starts', () => {
    expect(budgetPeriodLabel('quarter', '2026-04-01')).toBe('Q2 2026');
    expect(budgetPeriodLabel('quarter', '2026-02-01')).toBe('3 months from 2026-02-01');
    expect(budgetPeriodLabel('year', '2026-01-01')).toBe('FY 2026');
    expect(budgetPeriodLabel('year', '2026-04-01')).toBe('12 months from 2026-04-01');
  });

  it('names periods in the fiscal calendar of an organization whose year starts in April', () => {
    expect(budgetPeriodLabel('year', '2026-04-01', 4)).toBe('FY 2026/27');
    expect(budgetPeriodLabel('quarter', '2026-04-01', 4)).toBe('Q1 FY 2026/27');
    expect(budgetPeriodLabel('quarter', '2026-10-01', 4)).toBe('Q3 FY 2026/27');
    expect(budgetPeriodLabel('quarter', '2027-01-01', 4)).toBe('Q4 FY 2026/27');
    expect(budgetPeriodLabel('year', '2026-01-01', 4)).toBe('12 months from 2026-01-01');
    expect(budgetPeriodLabel('month', '2026-04-01', 4)).toBe('Apr 2026');
  });
});
