import { describe, expect, it } from 'vitest';
import {
  fiscalPeriodContaining,
  fiscalPeriodKey,
  fiscalPresetLabel,
  fiscalPresetRange,
  fiscalQuarterLabel,
  fiscalQuarterOf,
  fiscalYearOf,
  isFiscalPeriodStart,
} from './fiscal-calendar.ts';

describe('fiscal calendar', () => {
  it('puts January to March in the fiscal year that started the April before', () => {
    expect(fiscalYearOf('2027-03', 4)).toBe(2026);
    expect(fiscalYearOf('2026-04', 4)).toBe(2026);
    expect(fiscalYearOf('2026-03-31', 4)).toBe(2025);
    expect(fiscalYearOf('2026-03', 1)).toBe(2026);
  });

  it('counts quarters from the first month of the fiscal year', () => {
    expect([4, 6, 7, 12, 1, 3].map((m) => fiscalQuarterOf(`2026-${String(m).padStart(2, '0')}`, 4))).toEqual([
      1, 1, 2, 3, 4, 4,
    ]);
    expect(fiscalQuarterOf('2026-12', 1)).toBe(4);
    // A year starting in February has quarters Feb–Apr, May–Jul, Aug–Oct, Nov–Jan.
    expect(fiscalQuarterOf('2027-01', 2)).toBe(4);
    expect(fiscalPeriodContaining('quarter', '2027-01-15', 2)).toEqual({ start: '2026-11-01', end: '2027-01-31' });
  });

  it('finds the period holding a date', () => {
    expect(fiscalPeriodContaining('year', '2026-12-04', 4)).toEqual({ start: '2026-04-01', end: '2027-03-31' });
    expect(fiscalPeriodContaining('year', '2027-02-28', 4)).toEqual({ start: '2026-04-01', end: '2027-03-31' });
    expect(fiscalPeriodContaining('year', '2026-12-04', 1)).toEqual({ start: '2026-01-01', end: '2026-12-31' });
    expect(fiscalPeriodContaining('quarter', '2026-12-04', 4)).toEqual({ start: '2026-10-01', end: '2026-12-31' });
    expect(fiscalPeriodContaining('month', '2026-02-10', 4)).toEqual({ start: '2026-02-01', end: '2026-02-28' });
  });

  it('labels and keys periods of both calendars', () => {
    expect(fiscalQuarterLabel('2026-12', 4)).toBe('Q3 FY 2026/27');
    expect(fiscalQuarterLabel('2026-12', 1)).toBe('Q4 2026');
    expect(fiscalQuarterLabel('2099-12', 4)).toBe('Q3 FY 2099/00');
    expect(fiscalPeriodKey('quarter', '2027-02', 4)).toBe('FY2026-Q4');
    expect(fiscalPeriodKey('year', '2027-02', 4)).toBe('FY2026');
    expect(fiscalPeriodKey('quarter', '2027-02', 1)).toBe('2027-Q1');
    expect(fiscalPeriodKey('year', '2027-02', 1)).toBe('2027');
    expect(isFiscalPeriodStart('quarter', '2026-07-01', 4)).toBe(true);
    expect(isFiscalPeriodStart('year', '2026-01-01', 4)).toBe(false);
  });
});

describe('fiscal presets', () => {
  it('gives the months of this and last fiscal quarter and year', () => {
    expect(fiscalPresetRange('thisQuarter', '2026-12-04', 4)).toEqual({ from: '2026-10', to: '2026-12' });
    expect(fiscalPresetRange('lastQuarter', '2026-12-04', 4)).toEqual({ from: '2026-07', to: '2026-09' });
    expect(fiscalPresetRange('yearToDate', '2026-12-04', 4)).toEqual({ from: '2026-04', to: '2026-12' });
    expect(fiscalPresetRange('thisYear', '2027-02-10', 4)).toEqual({ from: '2026-04', to: '2027-03' });
    expect(fiscalPresetRange('lastYear', '2026-12-04', 4)).toEqual({ from: '2025-04', to: '2026-03' });
    expect(fiscalPresetRange('lastQuarter', '2026-02-10', 1)).toEqual({ from: '2025-10', to: '2025-12' });
  });

  it('names the period each preset stands for', () => {
    expect(fiscalPresetLabel('lastQuarter', '2026-12-04', 4)).toBe('Last fiscal quarter (Q2 FY 2026/27)');
    expect(fiscalPresetLabel('lastYear', '2026-12-04', 1)).toBe('Last fiscal year (FY 2025)');
  });
});
